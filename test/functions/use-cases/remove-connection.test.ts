import { removeConnection } from '#use-cases/remove-connection';
import { TIKTOK, socialWorld } from '#test-doubles/memory/social-world';

const ACCOUNT = 7;

describe('removeConnection', () => {
  test('removes it, then there is nothing to remove', async () => {
    const world = socialWorld();
    await world.connect(ACCOUNT, 'provider_b', [TIKTOK]);
    await expect(removeConnection(world.deps, { accountId: ACCOUNT, provider: 'provider_b' })).resolves.toMatchObject({ provider: 'provider_b' });
    await expect(removeConnection(world.deps, { accountId: ACCOUNT, provider: 'provider_b' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
