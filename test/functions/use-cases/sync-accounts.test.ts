import { syncAccounts } from '#use-cases/sync-accounts';
import { TIKTOK, YOUTUBE, socialWorld } from '#test-doubles/memory/social-world';

const ACCOUNT = 7;

describe('syncAccounts', () => {
  const sync = (world: ReturnType<typeof socialWorld>) => syncAccounts(world.deps, { accountId: ACCOUNT, provider: 'provider_a' });

  test('stores the new listing, says what changed, and heals an errored connection', async () => {
    const world = socialWorld();
    const connection = await world.connect(ACCOUNT, 'provider_a', [TIKTOK]);
    await world.connections.markError(ACCOUNT, 'provider_a', connection.generation, { code: 'provider_refused_key', message: 'x' }, new Date());
    world.provider_a.channels = [YOUTUBE];
    const synced = await sync(world);
    expect(synced).toMatchObject({ added: [YOUTUBE.id], removed: [TIKTOK.id], connection: { status: 'active', channels: [YOUTUBE], last_error: null } });
  });

  test('not connected: 409', async () => {
    await expect(sync(socialWorld())).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('connect it first') });
  });

  test('the stored key refused: 409 reconnect, and the connection is marked', async () => {
    const world = socialWorld();
    await world.connect(ACCOUNT, 'provider_a', [TIKTOK]);
    world.provider_a.fail('listChannels', world.provider_a.error('auth'));
    await expect(sync(world)).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('reconnect') });
    expect(await world.connections.get(ACCOUNT, 'provider_a')).toMatchObject({
      status: 'error',
      last_error: { code: 'provider_refused_key', message: expect.stringContaining('reconnect') },
      channels: [TIKTOK],
    });
  });

  test('a stored record that no longer opens: 409, marked unreadable, the provider not asked', async () => {
    const world = socialWorld();
    const mine = await world.connect(ACCOUNT, 'provider_a', [TIKTOK]);
    const theirs = await world.connect(ACCOUNT + 1, 'provider_a', [TIKTOK]);
    await world.connections.put({ ...mine, credentials: theirs.credentials });
    await expect(sync(world)).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('cannot be read') });
    expect(await world.connections.get(ACCOUNT, 'provider_a')).toMatchObject({ status: 'error', last_error: { code: 'credentials_unreadable' } });
    expect(world.provider_a.calls).toEqual([]);
  });

  test('connected again while listing: the stale listing is refused (409) and the new connection kept', async () => {
    const world = socialWorld();
    await world.connect(ACCOUNT, 'provider_a', [TIKTOK]);
    world.provider_a.listChannels = async () => {
      await world.connect(ACCOUNT, 'provider_a', [YOUTUBE], { apiKey: 'another_key_0123456789' });
      return [TIKTOK];
    };
    await expect(sync(world)).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('changed during the sync') });
    expect((await world.connections.get(ACCOUNT, 'provider_a'))!.channels).toEqual([YOUTUBE]);
  });
});
