import { channelsOfKey, setConnection } from '#use-cases/set-connection';
import { openCredentials } from '#use-cases/connection-credentials';
import { TIKTOK, socialWorld } from '#test-doubles/memory/social-world';

const ACCOUNT = 7;
const KEY = 'ayr_live_ABCDEFGHIJKLMNOP1234';

describe('setConnection', () => {
  test('checks the key by listing its channels, stores it sealed: 201 the first time, a new generation after', async () => {
    const world = socialWorld();
    world.provider_a.channels = [TIKTOK];
    const first = await setConnection(world.deps, { accountId: ACCOUNT, provider: 'provider_a', credentials: { apiKey: KEY, profileKey: 'PK-1' } });
    expect(first).toMatchObject({ created: true, connection: { status: 'active', channels: [TIKTOK], key_hint: '…1234', last_error: null } });
    expect(JSON.stringify(first.connection)).not.toContain('PK-1');
    expect(await openCredentials(world.deps.cipher, first.connection)).toEqual({ apiKey: KEY, profileKey: 'PK-1' });
    expect(world.provider_a.callsOf('listChannels')[0]!.credentials).toEqual({ apiKey: KEY, profileKey: 'PK-1' });

    const second = await setConnection(world.deps, { accountId: ACCOUNT, provider: 'provider_a', credentials: { apiKey: 'short' } });
    expect(second).toMatchObject({ created: false, connection: { key_hint: null } });
    expect(second.connection.generation).not.toBe(first.connection.generation);
  });

  test.each(['auth', 'rejected', 'not_found'] as const)('a key the provider refuses (%s) is a 400 and is not stored', async (kind) => {
    const world = socialWorld();
    world.provider_b.fail('listChannels', world.provider_b.error(kind));
    await expect(setConnection(world.deps, { accountId: ACCOUNT, provider: 'provider_b', credentials: { apiKey: KEY } })).rejects.toMatchObject({
      code: 'bad_request',
      message: 'The provider refused this key (provider_b): check the API key and try again',
    });
    expect(await world.connections.list(ACCOUNT)).toEqual([]);
  });

  test('the provider down is a 503 with Retry-After, and nothing is stored', async () => {
    const world = socialWorld();
    world.provider_b.fail('listChannels', world.provider_b.error('unavailable', 'down', { retryAfterS: 7 }));
    await expect(setConnection(world.deps, { accountId: ACCOUNT, provider: 'provider_b', credentials: { apiKey: KEY } })).rejects.toMatchObject({
      code: 'upstream_unavailable',
      headers: { 'retry-after': '7' },
    });
    expect(await world.connections.list(ACCOUNT)).toEqual([]);
  });
});

describe('channelsOfKey', () => {
  const key = { accountId: ACCOUNT, provider: 'provider_b' as const, credentials: { apiKey: KEY } };
  const refused = (refusal: { kind: string }): never => {
    throw new Error(`refused: ${refusal.kind}`);
  };

  test('the channels the key reaches', async () => {
    const world = socialWorld();
    world.provider_b.channels = [TIKTOK];
    expect(await channelsOfKey(world.deps.social, key, refused)).toEqual([TIKTOK]);
  });

  test('a refusal of the key goes to the caller, any other failure is the provider\'s', async () => {
    const world = socialWorld();
    world.provider_b.fail('listChannels', world.provider_b.error('auth'));
    await expect(channelsOfKey(world.deps.social, key, refused)).rejects.toThrow('refused: auth');
    world.provider_b.fail('listChannels', world.provider_b.error('unavailable', 'down'));
    await expect(channelsOfKey(world.deps.social, key, refused)).rejects.toMatchObject({ code: 'upstream_unavailable' });
  });
});
