/**
 * Admin CLI (README, Admin CLI): accounts, API keys and social connections. `--json` prints exactly
 * one JSON object on stdout.
 *   accounts create --name NAME [--plan free|starter|pro|business]
 *   keys create --account N [--scopes read,write,publish]
 *   keys revoke --id N
 *   keys list --account N
 *   connections set --account N --provider provider_a|provider_b --api-key KEY|- [--profile-key K] [--x-api-key K --x-api-secret S]
 *   connections list --account N
 *   counters recount --account N|--all [--collection products,videos,posts,avatars]
 * Targets the local stack through DATA_DIR, or a deployed one with --stack NAME (or STACK_NAME).
 * A provider key is checked with the provider (as PUT /social/connections/{provider} does), stored
 * sealed, and never printed; `--api-key -` reads it from stdin, keeping it out of the process list.
 */
import { parseArgs } from 'node:util';
import { ALL_SCOPES, parseScopes } from '#domain/api-keys';
import { PLAN_NAMES, isPlanName } from '#domain/plans';
import { connectionInput, connectionView, credentialsOf, isProviderName } from '#domain/social';
import { SOCIAL_PROVIDERS, type ProviderCredentials, type ProviderName } from '#domain/social';
import { isProviderError } from '#ports/social-provider';
import { isKeyRefusal, listChannels, storeConnection } from '#use-cases/set-connection';
import type { SocialProviders } from '#ports/social-provider';
import { connectAdminTarget } from '#admin/target';
import { recountAccount, recountAll } from '#admin/recount';
import { COLLECTION_NAMES, type CollectionName } from '#domain/collections';
import { adminConfig } from '#admin/config';

class UsageError extends Error {}

const USAGE = `usage: npm run cli -- <command> [options] [--json]
  accounts create --name NAME [--plan ${PLAN_NAMES.join('|')}]
  keys create --account N [--scopes ${ALL_SCOPES.join(',')}]
  keys revoke --id N
  keys list --account N
  connections set --account N --provider ${SOCIAL_PROVIDERS.join('|')} --api-key KEY|- [--profile-key KEY] [--x-api-key KEY --x-api-secret SECRET]
  connections list --account N
  counters recount --account N|--all [--collection ${COLLECTION_NAMES.join(',')}]
options: --data-dir DIR (default $DATA_DIR or .data), --stack NAME (a deployed stack; default $STACK_NAME)`;

function positiveInt(value: string | undefined, flag: string): number {
  if (value === undefined || !/^[1-9][0-9]*$/.test(value)) throw new UsageError(`--${flag} must be a positive integer`);
  return Number(value);
}

async function run(argv: string[]): Promise<Record<string, unknown>> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      plan: { type: 'string' },
      account: { type: 'string' },
      scopes: { type: 'string' },
      id: { type: 'string' },
      provider: { type: 'string' },
      'api-key': { type: 'string' },
      'profile-key': { type: 'string' },
      'x-api-key': { type: 'string' },
      'x-api-secret': { type: 'string' },
      json: { type: 'boolean' },
      'data-dir': { type: 'string' },
      stack: { type: 'string' },
      all: { type: 'boolean' },
      collection: { type: 'string' },
    },
  });
  const command = positionals.join(' ');
  const known = ['accounts create', 'keys create', 'keys revoke', 'keys list', 'connections set', 'connections list', 'counters recount'];
  if (!known.includes(command)) throw new UsageError(command ? `unknown command: ${command}` : 'no command given');

  const plan = values.plan ?? 'free';
  if (command === 'accounts create') {
    if (!values.name?.trim()) throw new UsageError('--name is required');
    if (!isPlanName(plan)) throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(', ')}`);
  }
  let scopes = [...ALL_SCOPES];
  if (command === 'keys create' && values.scopes !== undefined) {
    try {
      scopes = parseScopes(values.scopes);
    } catch (error) {
      throw new UsageError(`--scopes: ${(error as Error).message}`);
    }
  }
  const recountAllAccounts = command === 'counters recount' && values.all === true;
  const needsAccount =
    (command.startsWith('keys') && command !== 'keys revoke') || command.startsWith('connections') || (command === 'counters recount' && !recountAllAccounts);
  const accountArg = needsAccount ? positiveInt(values.account, 'account') : 0;
  const connection = command === 'connections set' ? await connectionArgs(values) : undefined;
  const idArg = command === 'keys revoke' ? positiveInt(values.id, 'id') : 0;
  const collections = command === 'counters recount' ? collectionsArg(values.collection) : [];

  const target = await connectAdminTarget({ stack: values.stack ?? adminConfig().stackName, dataDir: values['data-dir'] });
  const { accounts, apiKeys } = target;
  const getAccount = (id: number) => accounts.get(id);
  try {
    switch (command) {
      case 'accounts create': {
        const account = await accounts.create(values.name!.trim(), plan as never);
        return { id: account.id, name: account.name, plan: account.plan };
      }
      case 'keys create': {
        if (!(await getAccount(accountArg))) throw new Error(`account ${accountArg} does not exist`);
        const key = await apiKeys.create(accountArg, scopes);
        return { id: key.id, key: key.key, prefix: key.prefix, scopes: key.scopes, account: accountArg };
      }
      case 'keys revoke': {
        if (!(await apiKeys.revoke(idArg))) throw new Error(`key ${idArg} does not exist`);
        return { id: idArg, revoked: true };
      }
      case 'keys list': {
        if (!(await getAccount(accountArg))) throw new Error(`account ${accountArg} does not exist`);
        return { keys: await apiKeys.listOfAccount(accountArg) };
      }
      case 'connections set': {
        if (!(await getAccount(accountArg))) throw new Error(`account ${accountArg} does not exist`);
        const { provider, credentials } = connection!;
        const channels = await checkWithProvider(target.social, accountArg, provider, credentials);
        const stored = await storeConnection({ ...target, now: () => new Date() }, { accountId: accountArg, provider, credentials, channels });
        const view = connectionView(stored.connection);
        return { account: accountArg, provider, created: stored.created, status: view.status, key_hint: view.key_hint, channels: view.channels };
      }
      case 'counters recount': {
        if (recountAllAccounts) return { accounts: await recountAll(target, collections) };
        if (!(await getAccount(accountArg))) throw new Error(`account ${accountArg} does not exist`);
        return { ...(await recountAccount(target, accountArg, collections)) };
      }
      default: {
        if (!(await getAccount(accountArg))) throw new Error(`account ${accountArg} does not exist`);
        return { account: accountArg, connections: (await target.connections.list(accountArg)).map(connectionView) };
      }
    }
  } finally {
    await target.close();
  }
}

function collectionsArg(raw: string | undefined): CollectionName[] {
  if (raw === undefined) return [...COLLECTION_NAMES];
  const names = raw.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(COLLECTION_NAMES as readonly string[]).includes(name));
  if (unknown.length || names.length === 0) throw new UsageError(`--collection must be among ${COLLECTION_NAMES.join(', ')}`);
  return names as CollectionName[];
}

/** The provider and credentials of `connections set`, checked like the endpoint's body. */
async function connectionArgs(values: Record<string, string | boolean | undefined>): Promise<{ provider: ProviderName; credentials: ProviderCredentials }> {
  const provider = values.provider;
  if (!isProviderName(provider)) throw new UsageError(`--provider must be one of ${SOCIAL_PROVIDERS.join(', ')}`);
  let apiKey = values['api-key'];
  if (typeof apiKey !== 'string') throw new UsageError('--api-key is required (or --api-key - to read it from stdin)');
  if (apiKey === '-') apiKey = await readStdin();
  // The flags are the endpoint's fields with dashes: --profile-key is profile_key, --x-api-key x_api_key.
  const optional = Object.fromEntries(
    (['profile-key', 'x-api-key', 'x-api-secret'] as const).flatMap((flag) => (typeof values[flag] === 'string' ? [[flag.replaceAll('-', '_'), values[flag]]] : [])),
  );
  const parsed = connectionInput.safeParse({ api_key: apiKey, ...optional });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`--${String(issue.path[0] ?? 'api_key').replaceAll('_', '-')} ${issue.message}`);
  }
  const credentials = credentialsOf(provider, parsed.data);
  if ('refused' in credentials) throw new UsageError(credentials.refused.replace(/\b(profile_key|x_api_key|x_api_secret)\b/g, (field) => `--${field.replaceAll('_', '-')}`));
  return { provider, credentials };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

/** The channels the key reaches; the provider's refusal, in words that never quote the key. */
async function checkWithProvider(social: SocialProviders, accountId: number, provider: ProviderName, credentials: ProviderCredentials) {
  try {
    return await listChannels(social, accountId, provider, credentials, 30_000);
  } catch (error) {
    if (isKeyRefusal(error)) {
      throw new Error(`the provider refused this key (${provider}); nothing was stored`, { cause: error });
    }
    if (isProviderError(error) || (error instanceof Error && /^(Abort|Timeout)Error$/.test(error.name))) {
      throw new Error(`${provider} could not be reached (${isProviderError(error) ? error.kind : 'timeout'}); nothing was stored, try again later`, {
        cause: error,
      });
    }
    throw error;
  }
}

const argv = process.argv.slice(2);
const asJson = argv.includes('--json');
run(argv).then(
  (result) => {
    console.log(asJson ? JSON.stringify(result) : JSON.stringify(result, null, 2));
    process.exit(0);
  },
  (error: Error) => {
    if (asJson) console.log(JSON.stringify({ error: error.message }));
    else console.error(`error: ${error.message}${error instanceof UsageError ? `\n${USAGE}` : ''}`);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
