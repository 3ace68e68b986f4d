import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { realFacePng } from '#bench/reference-clip';
import { humanClipFaces } from '#adapters/media/human-clip-faces';
import { humanImageFaces } from '#adapters/media/human-image-faces';
import { SharpAvatarImages } from '#adapters/media/sharp-avatar-images';
import { createUpload } from '#use-cases/create-upload';
import { MemoryUploadStore } from '#test-doubles/memory/upload-store';
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
import { faceFinder, FOUND_FACE } from '#test-doubles/faces';

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
    faces: faceFinder(),
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
    expect(avatar).toMatchObject({ source: 'upload', status: 'ready', width: 800, height: 1000, image_key: `accounts/${accountId}/avatars/${avatar.id}/image.webp`, rig: FOUND_FACE });
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

describe('an uploaded image must show a face (real images: sharp and human)', () => {
  let dir: string;
  let grey: string;
  let face: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rs-avatar-faces-'));
    grey = join(dir, 'grey.png');
    face = join(dir, 'face.png');
    await sharp({ create: { width: 800, height: 800, channels: 3, background: { r: 128, g: 128, b: 128 } } }).png().toFile(grey);
    await writeFile(face, await realFacePng());
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  async function realSetup() {
    const s = await setup();
    const uploads = new MemoryUploadStore();
    const deps = { ...s.deps, uploads, avatarImages: new SharpAvatarImages(), faces: { ...humanImageFaces, ...humanClipFaces } };
    return { ...s, deps, uploads };
  }

  test('a plain grey picture is 422 no_face, saying so; no avatar, no object, no id taken', async () => {
    const { deps, accountId, avatars, blobs } = await realSetup();
    await expect(createAvatar(deps, { accountId, image: { path: grey } })).rejects.toMatchObject({
      status: 422,
      code: 'no_face',
      message: expect.stringMatching(/could not find a face in this image/),
    });
    expect(avatars.avatars.size).toBe(0);
    expect(blobs.objects.size).toBe(0);
    // The next avatar gets the first id: the refusal took none.
    const { avatar } = await createAvatar(deps, { accountId, image: { path: face } });
    expect(avatar.id).toBe(1);
  }, 30_000);

  test('a real face is ready at once, its landmarks kept with it in the stored image\'s pixels', async () => {
    const { deps, accountId, avatars } = await realSetup();
    const { avatar } = await createAvatar(deps, { accountId, image: { path: face } });
    const stored = await avatars.get(accountId, avatar.id);
    expect(stored).toMatchObject({ source: 'upload', status: 'ready', width: 600, height: 600, rig: { kind: 'photo-face', image: { width: 600, height: 600 } } });
  }, 30_000);

  test('a direct upload of a faceless picture is refused, its object deleted and its claim given back', async () => {
    const { deps, accountId, avatars, blobs, uploads } = await realSetup();
    const bytes = await readFile(grey);
    const { upload } = await createUpload(deps, accountId, { purpose: 'avatar_image', content_type: 'image/png', size_bytes: bytes.length });
    await blobs.putBuffer(upload.key, bytes, 'image/png');
    await expect(createAvatar(deps, { accountId, image: { uploadId: upload.id } })).rejects.toMatchObject({ code: 'no_face' });
    expect(avatars.avatars.size).toBe(0);
    expect(blobs.objects.size).toBe(0);
    expect(await uploads.get(accountId, upload.id)).toMatchObject({ status: 'pending' });
  }, 30_000);
});
