/**
 * Connecting a scheduling provider (PUT /social/connections/{provider}, `cli connections set`): the
 * key is checked against the provider first (listing the channels it reaches), then stored sealed,
 * replacing any earlier connection of that provider. A key the provider refuses is never stored.
 */
import { randomUUID } from 'node:crypto';
import { badRequest } from '#domain/errors';
import { keyHint, newConnection, type Channel, type Connection, type ProviderCredentials, type ProviderName } from '#domain/social';
import { isProviderError, type ProviderError, type SocialProviders } from '#ports/social-provider';
import type { Ports } from '#ports/ports';
import { sealCredentials } from './connection-credentials';
import { logOf, type UseCaseLog } from './log';
import { providerFailure } from './provider-errors';
import { socialRequestOf } from '#domain/test-mode';

/** Leaves room under API Gateway's 30 s for sealing and storing after the provider answers. */
const PROVIDER_CALL_TIMEOUT_MS = 20_000;

/** Failures that say the key itself is not (or no longer) good for listing channels. */
const KEY_REFUSALS: ReadonlySet<string> = new Set(['auth', 'rejected', 'not_found']);

export const isKeyRefusal = (error: unknown): error is ProviderError => isProviderError(error) && KEY_REFUSALS.has(error.kind);

export async function listChannels(
  social: SocialProviders,
  accountId: number,
  provider: ProviderName,
  credentials: ProviderCredentials,
  timeoutMs = PROVIDER_CALL_TIMEOUT_MS,
): Promise<Channel[]> {
  return social(provider, socialRequestOf(accountId)).listChannels(credentials, { signal: AbortSignal.timeout(timeoutMs) });
}

/**
 * The channels a key reaches. The provider refusing the key itself goes to `refused`, which throws
 * what the caller answers for it; any other failure is the provider's (providerFailure).
 */
export async function channelsOfKey(
  social: SocialProviders,
  key: { accountId: number; provider: ProviderName; credentials: ProviderCredentials },
  refused: (refusal: ProviderError) => never | Promise<never>,
): Promise<Channel[]> {
  try {
    return await listChannels(social, key.accountId, key.provider, key.credentials);
  } catch (error) {
    if (isKeyRefusal(error)) return refused(error);
    throw providerFailure(error, key.provider, 'the channel listing');
  }
}

export interface NewConnection {
  accountId: number;
  provider: ProviderName;
  credentials: ProviderCredentials;
  /** As the provider listed them when the key was checked. */
  channels: Channel[];
}

/** Seals the credentials and stores the connection; `created` tells a first connection from a replaced one. */
export async function storeConnection(
  deps: Pick<Ports, 'connections' | 'cipher' | 'now'>,
  input: NewConnection,
): Promise<{ connection: Connection; created: boolean }> {
  const connection = newConnection({
    accountId: input.accountId,
    provider: input.provider,
    credentials: await sealCredentials(deps.cipher, input.accountId, input.provider, input.credentials),
    keyHint: keyHint(input.credentials.apiKey),
    channels: input.channels,
    // A new generation on every connect: a sync that raced this one cannot overwrite its channels.
    generation: randomUUID(),
    now: deps.now(),
  });
  const { created } = await deps.connections.put(connection);
  return { connection, created };
}

export async function setConnection(
  deps: Pick<Ports, 'social' | 'connections' | 'cipher' | 'now'> & { log?: UseCaseLog },
  input: Omit<NewConnection, 'channels'>,
): Promise<{ connection: Connection; created: boolean }> {
  const { accountId, provider, credentials } = input;
  const log = logOf(deps);
  const channels = await channelsOfKey(deps.social, { accountId, provider, credentials }, (refusal) => {
    log.info('provider refused a key offered for connection', { provider, accountId, kind: refusal.kind });
    const what = provider === 'provider_a' ? 'API key and profile key' : 'API key';
    throw badRequest(`The provider refused this key (${provider}): check the ${what} and try again`);
  });
  const stored = await storeConnection(deps, { accountId, provider, credentials, channels });
  log.info('social connection stored', { provider, accountId, channels: channels.length, replaced: !stored.created });
  return stored;
}
