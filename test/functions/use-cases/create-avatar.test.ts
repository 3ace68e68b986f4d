import { AppError } from '#domain/errors';
import type { PlanName } from '#domain/plans';
import type { AvatarImages } from '#ports/avatar-images';
import type { BackgroundTask } from '#ports/background-tasks';
import { EngineError, type AvatarEngine } from '#ports/engine';
import { createAvatar } from '#use-cases/create-avatar';
import { MemoryAccountStore } from '#test-doubles/memory/account-store';
import { MemoryAvatarStore } from '#test-doubles/memory/avatar-store';
import { MemoryBlobStore } from '#test-doubles/memory/blob-store';
import { MemoryRateLimiter } from '#test-doubles/memory/rate-limiter';
import { testDependencies, testEngines } from '#test-support/wiring';

const NOW = new Date('2026-03-01T10:00:00Z');

const images: AvatarImages = {
  prepare: async () => ({ data: Buffer.from('webp'), extension: 'webp', contentType: 'image/webp', width: 800, height: 1000 }),
};

const localEngine = (blobs: MemoryBlobStore): AvatarEngine => ({
  name: 'local',
  async avatarFromPrompt(_prompt, options) {
    await blobs.putBuffer(options.outputKey, Buffer.from('png'), 'image/png');
    return { image: { key: options.outputKey, contentType: 'image/png', sizeBytes: 3 }, width: 720, height: 1280, seed: options.seed, rig: { kind: 'illustrated' }, engine: 'local' };
  },
});

async function setup(options: { plan?: PlanName; inline?: boolean; engine?: (blobs: MemoryBlobStore) => AvatarEngine } = {}) {
  const accounts = new MemoryAccountStore();
  const account = await accounts.create('test', options.plan ?? 'free', NOW);
  const avatars = new MemoryAvatarStore();
  const blobs = new MemoryBlobStore();
  const rateLimits = new MemoryRateLimiter(() => NOW.getTime());
  const dispatched: BackgroundTask[] = [];
  const engine = (options.engine ?? localEngine)(blobs);
  const deps = testDependencies({
    accounts,
    avatars,
    blobs,
    rateLimits,
    avatarImages: images,
    tasks: { dispatch: async (task) => void dispatched.push(task) },
    engines: testEngines({ avatarIsInline: options.inline ?? true, inlineAvatar: async () => engine }),
    now: () => NOW,
  });
  return { deps, accountId: account.id, avatars, blobs, dispatched };
}

describe('createAvatar', () => {
  test('an upload is stored re-encoded, ready at once', async () => {
    const { deps, accountId, blobs } = await setup();
    const { avatar, generating } = await createAvatar(deps, { accountId, image: { path: '/tmp/upload' } });
    expect(generating).toBe(false);
    expect(avatar).toMatchObject({ source: 'upload', status: 'ready', width: 800, height: 1000, image_key: `accounts/${accountId}/avatars/${avatar.id}/image.webp` });
    expect(blobs.objects.get(avatar.image_key!)).toMatchObject({ contentType: 'image/webp' });
  });

  test('a prompt with the local engine is generated within the request, rig kept', async () => {
    const { deps, accountId, avatars } = await setup();
    const { avatar, generating } = await createAvatar(deps, { accountId, prompt: 'a chef' });
    expect(generating).toBe(false);
    expect(await avatars.get(accountId, avatar.id)).toMatchObject({ source: 'prompt', status: 'ready', prompt: 'a chef', engine: 'local', rig: { kind: 'illustrated' } });
  });

  test('a prompt with a hosted engine is recorded processing and generated in the background', async () => {
    const { deps, accountId, dispatched } = await setup({ inline: false });
    const { avatar, generating } = await createAvatar(deps, { accountId, prompt: 'a chef' });
    expect(generating).toBe(true);
    expect(avatar).toMatchObject({ status: 'processing', image_key: null, seed: expect.any(Number) });
    expect(dispatched).toEqual([{ type: 'generate-avatar', accountId, avatarId: avatar.id }]);
  });

  test("an engine's refusal is the client's to fix, and leaves nothing behind", async () => {
    const refusing = (): AvatarEngine => ({ name: 'local', avatarFromPrompt: async () => Promise.reject(new EngineError('content_rejected', 'flagged')) });
    const { deps, accountId, avatars, blobs } = await setup({ engine: refusing });
    await expect(createAvatar(deps, { accountId, prompt: 'forbidden' })).rejects.toMatchObject({ code: 'bad_request', message: expect.stringContaining('prompt was refused') });
    expect(avatars.avatars.size).toBe(0);
    expect(blobs.objects.size).toBe(0);
  });

  test('a full account is refused before any upload work or AI-helper budget is spent', async () => {
    const { deps, accountId } = await setup({ plan: 'free' });
    for (let i = 0; i < 10; i++) await createAvatar(deps, { accountId, image: { path: '/tmp/upload' } });
    const prepare = jest.spyOn(images, 'prepare');
    await expect(createAvatar(deps, { accountId, image: { path: '/tmp/upload' } })).rejects.toMatchObject({ code: 'avatars_full' });
    expect(prepare).not.toHaveBeenCalled();
    const consumeAll = jest.spyOn(deps.rateLimits, 'consumeAll');
    await expect(createAvatar(deps, { accountId, prompt: 'a chef' })).rejects.toBeInstanceOf(AppError);
    expect(consumeAll).not.toHaveBeenCalled();
  });

  test('prompts count against the AI-helper budget per minute', async () => {
    const { deps, accountId } = await setup({ plan: 'free', inline: false });
    for (let i = 0; i < 5; i++) await createAvatar(deps, { accountId, prompt: `chef ${i}` });
    await expect(createAvatar(deps, { accountId, prompt: 'one more' })).rejects.toMatchObject({ code: 'rate_limited', headers: { 'retry-after': expect.any(String) } });
  });
});
