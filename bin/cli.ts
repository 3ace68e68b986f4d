/**
 * Admin CLI (DESIGN §6): accounts and API keys. `--json` prints exactly one JSON object on stdout.
 *   accounts create --name NAME [--plan free|starter|pro|business]
 *   keys create --account N [--scopes read,write,publish]
 *   keys revoke --id N
 *   keys list --account N
 * Targets the local stack through DATA_DIR, or a deployed one with --stack NAME (or STACK_NAME).
 */
import { parseArgs } from 'node:util';
import { createAccount, getAccount } from '../functions/adapters/dynamodb/accounts';
import { createApiKey, listApiKeys, revokeApiKey } from '../functions/adapters/dynamodb/api-keys';
import { ALL_SCOPES, parseScopes } from '../functions/domain/api-keys';
import { PLAN_NAMES, isPlanName } from '../functions/domain/plans';
import { connectAdminTarget } from '../lib/admin/target';

class UsageError extends Error {}

const USAGE = `usage: npm run cli -- <command> [options] [--json]
  accounts create --name NAME [--plan ${PLAN_NAMES.join('|')}]
  keys create --account N [--scopes ${ALL_SCOPES.join(',')}]
  keys revoke --id N
  keys list --account N
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
      json: { type: 'boolean' },
      'data-dir': { type: 'string' },
      stack: { type: 'string' },
    },
  });
  const command = positionals.join(' ');
  const known = ['accounts create', 'keys create', 'keys revoke', 'keys list'];
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
  const accountArg = command.startsWith('keys') && command !== 'keys revoke' ? positiveInt(values.account, 'account') : 0;
  const idArg = command === 'keys revoke' ? positiveInt(values.id, 'id') : 0;

  const target = await connectAdminTarget({ stack: values.stack ?? process.env.STACK_NAME, dataDir: values['data-dir'] });
  try {
    switch (command) {
      case 'accounts create': {
        const account = await createAccount(values.name!.trim(), plan as never);
        return { id: account.id, name: account.name, plan: account.plan };
      }
      case 'keys create': {
        if (!(await getAccount(accountArg))) throw new Error(`account ${accountArg} does not exist`);
        const key = await createApiKey(accountArg, scopes);
        return { id: key.id, key: key.key, prefix: key.prefix, scopes: key.scopes, account: accountArg };
      }
      case 'keys revoke': {
        if (!(await revokeApiKey(idArg))) throw new Error(`key ${idArg} does not exist`);
        return { id: idArg, revoked: true };
      }
      default: {
        if (!(await getAccount(accountArg))) throw new Error(`account ${accountArg} does not exist`);
        return { keys: await listApiKeys(accountArg) };
      }
    }
  } finally {
    await target.close();
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
