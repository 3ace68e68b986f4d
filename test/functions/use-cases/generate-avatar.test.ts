import type { Avatar } from '#domain/avatar';
import { EngineError, type AvatarEngine } from '#ports/engine';
import { generateAvatar } from '#use-cases/generate-avatar';
import { MemoryAvatarStore } from '#test-doubles/memory/avatar-store';
import { MemoryBlobStore } from '#test-doubles/memory/blob-store';
import { testDependencies, testEngines } from '#test-support/wiring';
import { faceFinder, FOUND_FACE } from '#test-doubles/faces';
import type { FaceFinder } from '#ports/face-finder';

const NOW = new Date('2026-03-01T10:00:00Z');
const IMAGE = 'accounts/7/avatars/1/image.png';

const pending: Avatar = {
  id: 1,
  account_id: 7,
  source: 'prompt',
  prompt: 'a chef with a moustache',
  status: 'processing',
  image_key: null,
  width: null,
  height: null,
  engine: null,
  seed: 42,
  error: null,
  created_at: NOW.toISOString(),
  updated_at: NOW.toISOString(),
};

async function setup(avatarFromPrompt: AvatarEngine['avatarFromPrompt'], faces: FaceFinder = faceFinder()) {
  const avatars = new MemoryAvatarStore();
  const blobs = new MemoryBlobStore();
  await avatars.create(pending, 10);
  const engine: AvatarEngine = { name: 'hosted-double', avatarFromPrompt };
  const deps = testDependencies({ avatars, blobs, faces, now: () => NOW, engines: testEngines({ avatar: async () => engine }) });
  return { avatars, blobs, deps };
}

const draws = (blobs: MemoryBlobStore): AvatarEngine['avatarFromPrompt'] => async (_prompt, options) => {
  await blobs.putBuffer(options.outputKey, Buffer.from('png'), 'image/png');
  return { image: { key: options.outputKey, contentType: 'image/png', sizeBytes: 3 }, width: 768, height: 1344, seed: options.seed, engine: 'hosted-double' };
};

describe('generateAvatar', () => {
  test('records the generated image on the avatar, with the seed it was asked for', async () => {
    const blobs = new MemoryBlobStore();
    const { deps, avatars } = await setup((prompt, options) => draws(blobs)(prompt, options));
    await generateAvatar({ ...deps, blobs }, { accountId: 7, avatarId: 1 });
    expect(await avatars.get(7, 1)).toMatchObject({ status: 'ready', image_key: IMAGE, width: 768, height: 1344, seed: 42, engine: 'hosted-double', error: null });
  });

  test("an engine's refusal is the avatar's error, and nothing is left in the store", async () => {
    const { deps, avatars, blobs } = await setup(async () => Promise.reject(new EngineError('content_rejected', 'flagged by the safety filter')));
    await generateAvatar(deps, { accountId: 7, avatarId: 1 });
    expect(await avatars.get(7, 1)).toMatchObject({ status: 'failed', image_key: null, error: { code: 'content_rejected', message: 'flagged by the safety filter' } });
    expect(blobs.objects.size).toBe(0);
  });

  test('an unexpected failure reads as engine_failure, in words a user can act on', async () => {
    const { deps, avatars } = await setup(async () => Promise.reject(new TypeError('undefined is not a function')));
    await generateAvatar(deps, { accountId: 7, avatarId: 1 });
    expect((await avatars.get(7, 1))!.error).toEqual({ code: 'engine_failure', message: 'The avatar could not be generated; try again or change the prompt' });
  });

  test('an avatar deleted during generation is not resurrected and its image goes', async () => {
    const blobs = new MemoryBlobStore();
    const { deps, avatars } = await setup(async (prompt, options) => {
      await avatars.delete(7, 1);
      return draws(blobs)(prompt, options);
    });
    await generateAvatar({ ...deps, blobs }, { accountId: 7, avatarId: 1 });
    expect(await avatars.get(7, 1)).toBeUndefined();
    expect(blobs.objects.size).toBe(0);
  });

  test('a settled avatar is not generated again', async () => {
    const engine = jest.fn();
    const { deps, avatars } = await setup(engine);
    await avatars.settle(7, 1, { status: 'ready', image_key: IMAGE, width: 1, height: 1, engine: 'x', seed: 1, error: null }, NOW);
    await generateAvatar(deps, { accountId: 7, avatarId: 1 });
    expect(engine).not.toHaveBeenCalled();
  });

  test('the portrait is looked at for a face as stored, and the landmarks found kept as its rig', async () => {
    const blobs = new MemoryBlobStore();
    const looked: string[] = [];
    const faces: FaceFinder = { ...faceFinder(), faceInImage: async (image) => (looked.push(image.toString()), FOUND_FACE) };
    const { deps, avatars } = await setup((prompt, options) => draws(blobs)(prompt, options), faces);
    await generateAvatar({ ...deps, blobs }, { accountId: 7, avatarId: 1 });
    expect(looked).toEqual(['png']);
    expect(await avatars.get(7, 1)).toMatchObject({ status: 'ready', rig: FOUND_FACE });
  });

  test('a portrait that shows no face is a failed avatar saying so (no_face, as an upload without one), not a ready one; its image goes', async () => {
    const blobs = new MemoryBlobStore();
    const { deps, avatars } = await setup((prompt, options) => draws(blobs)(prompt, options), faceFinder({ image: false }));
    await generateAvatar({ ...deps, blobs }, { accountId: 7, avatarId: 1 });
    expect(await avatars.get(7, 1)).toMatchObject({
      status: 'failed',
      image_key: null,
      error: { code: 'no_face', message: 'We could not find a face in the generated portrait. Try again, or describe one person facing the camera' },
    });
    expect(blobs.objects.size).toBe(0);
  });
});
