
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';
import type { S3Client } from '@aws-sdk/client-s3';
import { createS3Client } from '#adapters/aws-clients';
import { S3BlobStore } from '#adapters/s3/blob-store';
import { DEFAULT_REGION } from '#functions/config';
import { CALM_FACE, isIllustratedRig, REST_CAMERA, type ReactionFrame, canonicalMismatches, probeMedia } from '#render';
import { createLocalEngine, type BlobFiles, type MotionSource } from '#adapters/engines/local/engine';
import { EngineError, type AvatarRef } from '#ports/engine';
import { ensureBucket } from '#local/provision';
import { sharedEndpoints, uniqueName } from '#test-support/services';
import { fileArg, runFfmpeg } from '#render';
const { abs } = Math;

/** One frame of a clip as a PNG (lossless, so only the encode's own noise differs between clips). */
async function framePng(file: string, atS: number): Promise<Buffer> {
  const out = `${file}.png`;
  await runFfmpeg(['-v', 'error', '-ss', String(atS), '-i', fileArg(file), '-frames:v', '1', '-y', fileArg(out)]);
  return fsp.readFile(out);
}

const BUCKET = uniqueName('local-engine');
let client: S3Client;
let bucket: S3BlobStore;
const getToFile = (key: string, file: string) => bucket.getToFile(key, file);
let workDir: string;
let tmpDir: string;

beforeAll(async () => {
  workDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'local-engine-test-'));
  tmpDir = path.join(workDir, 'engine-tmp');
  await fsp.mkdir(tmpDir);
  const { s3Endpoint } = sharedEndpoints();
  client = createS3Client({ region: DEFAULT_REGION, s3Endpoint });
  bucket = new S3BlobStore(client, BUCKET);
  await ensureBucket(s3Endpoint, BUCKET);
}, 60_000);

afterAll(async () => {
  client?.destroy();
  await fsp.rm(workDir, { recursive: true, force: true });
});

const leftovers = async () => fsp.readdir(tmpDir);

function avatarFrom(rig: unknown, imageKey = 'avatars/1.png'): AvatarRef {
  return { id: 1, source: 'prompt', imageKey, width: 1024, height: 1024, prompt: 'x', rig };
}

describe('the local engine against the blob store (s3rver)', () => {
  const engine = () => createLocalEngine({ tmpDir, blobs: bucket });

  test('an avatar from a prompt is a 1024² PNG in the bucket, with a rig to animate it; same seed, same bytes', async () => {
    const avatar = await engine().avatarFromPrompt('bald man with glasses and a beard', { seed: 12, outputKey: 'avatars/a.png' });
    await engine().avatarFromPrompt('bald man with glasses and a beard', { seed: 12, outputKey: 'avatars/b.png' });
    expect(avatar).toMatchObject({ width: 1024, height: 1024, seed: 12, engine: 'local', image: { key: 'avatars/a.png', contentType: 'image/png' } });
    expect(isIllustratedRig(avatar.rig)).toBe(true);
    const a = path.join(workDir, 'a.png');
    const b = path.join(workDir, 'b.png');
    await getToFile('avatars/a.png', a);
    await getToFile('avatars/b.png', b);
    const bytes = await fsp.readFile(a);
    expect(bytes.length).toBe(avatar.image.sizeBytes);
    expect(bytes.equals(await fsp.readFile(b))).toBe(true);
    expect((await sharp(bytes).metadata()).width).toBe(1024);
    expect(await leftovers()).toEqual([]);
  });

  test('a reaction from a prompt is a canonical 4 s clip in the bucket', async () => {
    const avatar = await engine().avatarFromPrompt('woman with curly red hair', { seed: 5, outputKey: 'avatars/r.png' });
    const clip = await engine().reactionFromPrompt(avatarFrom(avatar.rig), 'lmao this is hilarious', { seed: 5, outputKey: 'reactions/r.mp4' });
    expect(clip).toMatchObject({ durationS: 4, width: 1080, height: 1920, fps: 30, seed: 5, emotion: 'laughing', engine: 'local', video: { key: 'reactions/r.mp4', contentType: 'video/mp4' } });
    const file = path.join(workDir, 'r.mp4');
    await getToFile('reactions/r.mp4', file);
    const probed = await probeMedia(file);
    if (!probed.ok) throw new Error(probed.detail);
    expect(canonicalMismatches(probed.media)).toEqual([]);
    expect(probed.media.video!.frameCount).toBe(120);
    expect((await fsp.stat(file)).size).toBe(clip.video.sizeBytes);
    expect(await leftovers()).toEqual([]);
  }, 60_000);
});

/** In-memory blob store, to test the engine's own decisions without S3. */
function memoryBlobs(): BlobFiles & { objects: Map<string, Buffer> } {
  const objects = new Map<string, Buffer>();
  return {
    objects,
    async putFile(key, file) {
      objects.set(key, await fsp.readFile(file));
    },
    async getToFile(key, file) {
      const body = objects.get(key);
      if (!body) throw Object.assign(new Error('no such key'), { name: 'NoSuchKey' });
      await fsp.writeFile(file, body);
    },
  };
}

describe('the local engine\'s choices', () => {
  const rig = () => createLocalEngine({ tmpDir, blobs: memoryBlobs() }).avatarFromPrompt('a person', { seed: 1, outputKey: 'a.png' }).then((a) => a.rig);

  test('a photo avatar without the photo renderer is refused as invalid input, naming what works', async () => {
    const engine = createLocalEngine({ tmpDir, blobs: memoryBlobs() });
    const error = await engine.reactionFromPrompt({ ...avatarFrom({ kind: 'photo-face' }), source: 'upload' }, 'shocked', { seed: 1, outputKey: 'x.mp4' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('invalid_input');
    expect((error as EngineError).message).toMatch(/prompt/);
    expect(await leftovers()).toEqual([]);
  });

  test('it reports where the face is, and a caption it burns in keeps off it in every frame', async () => {
    const blobs = memoryBlobs();
    const engine = createLocalEngine({ tmpDir, blobs });
    const avatar = avatarFrom(await rig());
    const caption = { text: 'Wait for it… this changed everything', position: 'middle', size: 'large' } as const;
    const captioned = await engine.reactionFromPrompt(avatar, 'shocked', { seed: 3, outputKey: 'c.mp4', caption });
    const clean = await engine.reactionFromPrompt(avatar, 'shocked', { seed: 3, outputKey: 'n.mp4' });
    const face = captioned.faceBox!;
    expect(clean.faceBox).toEqual(face);
    // A drawn face: in the middle of the frame, eyes to mouth (not the whole head).
    expect(face.x + face.width / 2).toBeGreaterThan(440);
    expect(face.x + face.width / 2).toBeLessThan(640);
    expect(face.height).toBeLessThan(500);
    expect(captioned.captioned).toEqual({ ...caption, avoid: face });
    // What the caption changed, in frames across the clip: all of it off the face.
    for (const atS of [0.2, 1.5, 3.8]) {
      const [a, b] = await Promise.all(['c.mp4', 'n.mp4'].map(async (key) => {
        const file = path.join(workDir, `${atS}-${key}`);
        await fsp.writeFile(file, blobs.objects.get(key)!);
        const { data } = await sharp(await framePng(file, atS)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
        return new Uint8ClampedArray(data);
      }));
      // The encoder's own noise differs a little everywhere between two encodes; the caption's white
      // letters and dark outline differ by far more.
      const strongly = (x: number, y: number) => {
        const o = (y * 1080 + x) * 4;
        return abs(a![o]! - b![o]!) + abs(a![o + 1]! - b![o + 1]!) + abs(a![o + 2]! - b![o + 2]!) > 240;
      };
      let onFace = 0, elsewhere = 0;
      for (let y = 0; y < 1920; y++) {
        for (let x = 0; x < 1080; x++) {
          if (!strongly(x, y)) continue;
          if (x >= face.x && x < face.x + face.width && y >= face.y && y < face.y + face.height) onFace++;
          else elsewhere++;
        }
      }
      expect({ atS, onFace, captionDrawn: elsewhere > 5000 }).toEqual({ atS, onFace: 0, captionDrawn: true });
    }
  }, 120_000);

  test('a damaged illustrated rig is invalid input', async () => {
    const engine = createLocalEngine({ tmpDir, blobs: memoryBlobs() });
    const damaged = { ...(await rig() as object), options: { top: ['nope'] } };
    const error = await engine.reactionFromPrompt(avatarFrom(damaged), 'shocked', { seed: 1, outputKey: 'x.mp4' }).catch((e: unknown) => e);
    expect((error as EngineError).code).toBe('invalid_input');
  });

  test('a reaction from motion without a motion source is invalid input', async () => {
    const engine = createLocalEngine({ tmpDir, blobs: memoryBlobs() });
    const error = await engine.reactionFromMotion(avatarFrom(await rig()), 'refs/1.mp4', { seed: 1, outputKey: 'x.mp4' }).catch((e: unknown) => e);
    expect((error as EngineError).code).toBe('invalid_input');
  });

  test('motion from a reference clip drives the illustrated avatar; a short clip is held to the 3 s minimum', async () => {
    const blobs = memoryBlobs();
    blobs.objects.set('refs/1.mp4', Buffer.from('not really a video: the motion source below is a double'));
    const seen: Array<{ fps: number; maxFrames: number; bytes: number }> = [];
    const motion: MotionSource = {
      async framesFromReference(file, fps, maxFrames) {
        seen.push({ fps, maxFrames, bytes: (await fsp.stat(file)).size });
        // One second of a mouth opening wide.
        return Array.from({ length: 30 }, (_, i): ReactionFrame => ({ face: { ...CALM_FACE, mouthOpen: i / 29, eyeOpen: 1 + i / 60 }, camera: REST_CAMERA }));
      },
    };
    const engine = createLocalEngine({ tmpDir, blobs, motion });
    const clip = await engine.reactionFromMotion(avatarFrom(await rig()), 'refs/1.mp4', { seed: 1, outputKey: 'reactions/m.mp4' });
    expect(seen).toEqual([{ fps: 30, maxFrames: 150, bytes: blobs.objects.get('refs/1.mp4')!.length }]);
    expect(clip).toMatchObject({ durationS: 3, emotion: null, engine: 'local' });
    const file = path.join(workDir, 'm.mp4');
    await fsp.writeFile(file, blobs.objects.get('reactions/m.mp4')!);
    const probed = await probeMedia(file);
    if (!probed.ok) throw new Error(probed.detail);
    expect(probed.media.video!.frameCount).toBe(90);
    expect(await leftovers()).toEqual([]);
  }, 60_000);

  test('a missing reference clip is invalid input, and nothing is left behind', async () => {
    const motion: MotionSource = { framesFromReference: async () => [] };
    const engine = createLocalEngine({ tmpDir, blobs: memoryBlobs(), motion });
    const error = await engine.reactionFromMotion(avatarFrom(await rig()), 'refs/missing.mp4', { seed: 1, outputKey: 'x.mp4' }).catch((e: unknown) => e);
    expect((error as EngineError).code).toBe('invalid_input');
    expect((error as EngineError).message).toMatch(/reference clip/);
    expect(await leftovers()).toEqual([]);
  });

  test('a cancelled generation rejects as cancelled and stores nothing', async () => {
    const blobs = memoryBlobs();
    const engine = createLocalEngine({ tmpDir, blobs });
    const avatarRig = await rig();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 400);
    const error = await engine.reactionFromPrompt(avatarFrom(avatarRig), 'shocked', { seed: 1, outputKey: 'reactions/c.mp4', signal: controller.signal }).catch((e: unknown) => e);
    expect((error as EngineError).code).toBe('cancelled');
    expect(blobs.objects.has('reactions/c.mp4')).toBe(false);
    expect(await leftovers()).toEqual([]);
  });

  test('a store that fails is a retryable engine failure', async () => {
    const engine = createLocalEngine({
      tmpDir,
      blobs: { putFile: async () => Promise.reject(new Error('connection reset')), getToFile: async () => undefined },
    });
    const error = await engine.avatarFromPrompt('a person', { seed: 1, outputKey: 'a.png' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'engine_failure', retryable: true });
    expect(await leftovers()).toEqual([]);
  });

  test('the S3 blob store fits the engine\'s BlobFiles shape', () => {
    const files: BlobFiles = bucket;
    expect(typeof files.putFile).toBe('function');
  });
});
