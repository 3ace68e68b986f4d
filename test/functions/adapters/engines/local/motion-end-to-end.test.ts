/**
 * A reaction from motion, end to end through the engine as the service wires it
 * (createLocalEngineWithFaces) with a local folder standing in for the bucket: a reference clip of a
 * real face that sways, punches in and rolls its head (bench/reference-clip.ts, made here with
 * ffmpeg from the sample image inside @vladmandic/human), an illustrated avatar from a prompt, the
 * canonical clip out; and the clips that cannot drive a reaction refused as invalid_input.
 */
import { existsSync, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { makeReferenceClip, realFacePng } from '#bench/reference-clip';
import type { LocalEngine } from '#adapters/engines/local/engine';
import { createLocalEngineWithFaces } from '#adapters/engines/local/engine-with-faces';
import { fileArg, runFfmpeg, probeMedia } from '#render';
import { EngineError, type AvatarRef } from '#ports/engine';
const { abs } = Math;

let dir: string;
let bucketDir: string;
let engine: LocalEngine;
let avatar: AvatarRef;

/** The blob store as a folder: a key's slashes become underscores (as in bench/engine-local.ts). */
const blobPath = (key: string) => path.join(bucketDir, key.replaceAll('/', '_'));
const bucket = {
  putFile: (key: string, file: string) => fsp.copyFile(file, blobPath(key)),
  getToFile: (key: string, file: string) => fsp.copyFile(blobPath(key), file),
};

async function failureOf(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

/** One frame of a video at `atS`, as 270×480 grey pixels. */
async function greyFrame(video: string, atS: number): Promise<Buffer> {
  const out = path.join(dir, `frame-${atS}.gray`);
  await runFfmpeg(['-v', 'error', '-ss', atS.toFixed(3), '-i', fileArg(video), '-frames:v', '1', '-vf', 'scale=270:480', '-f', 'rawvideo', '-pix_fmt', 'gray', '-y', fileArg(out)]);
  return fsp.readFile(out);
}

/** Mean absolute difference of two same-sized grey frames (0-255). */
function meanDifference(a: Buffer, b: Buffer): number {
  expect(a.length).toBe(b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += abs(a[i]! - b[i]!);
  return sum / a.length;
}

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'rs-motion-e2e-'));
  bucketDir = path.join(dir, 'bucket');
  await fsp.mkdir(bucketDir);
  engine = await createLocalEngineWithFaces({ blobs: bucket, tmpDir: dir });
  const made = await engine.avatarFromPrompt('man with a beard and a blue hoodie', { seed: 11, outputKey: 'avatars/1.png' });
  avatar = { id: 1, source: 'prompt', imageKey: made.image.key, width: made.width, height: made.height, rig: made.rig };
});

afterAll(async () => {
  if (dir) await fsp.rm(dir, { recursive: true, force: true });
});

describe(
  'a reference clip of a real face drives an illustrated avatar',
  () => {
    let output: string;

    beforeAll(async () => {
      const face = await realFacePng();
      const reference = path.join(dir, 'reference.mp4');
      await makeReferenceClip(face, reference, { durationS: 4.5 });
      await bucket.putFile('references/face.mp4', reference);
      const clip = await engine.reactionFromMotion(avatar, 'references/face.mp4', { seed: 5, outputKey: 'reactions/motion.mp4' });
      expect(clip).toMatchObject({ width: 1080, height: 1920, fps: 30, emotion: null, engine: 'local', seed: 5 });
      expect(clip.video.key).toBe('reactions/motion.mp4');
      expect(clip.durationS).toBeCloseTo(4.5, 5); // the reference's length (within 3-5 s)
      output = blobPath(clip.video.key);
      expect(clip.video.sizeBytes).toBe((await fsp.stat(output)).size);
    }, 60_000);

    test('the output is the canonical reaction clip', async () => {
      const probe = await probeMedia(output);
      if (!probe.ok) throw new Error(`the output cannot be probed: ${probe.detail}`);
      const { video, audio } = probe.media;
      expect(video).toMatchObject({ codec: 'h264', width: 1080, height: 1920 });
      expect(video!.fps).toBeCloseTo(30, 3);
      const durationS = video!.durationS ?? probe.media.durationS!;
      expect(durationS).toBeGreaterThanOrEqual(3);
      expect(durationS).toBeLessThanOrEqual(5);
      expect(audio).toMatchObject({ codec: 'aac', sampleRate: 48000, channels: 2 });
    });

    test('the avatar moves with the reference: frames at rest and mid-reaction differ', async () => {
      // The reference rests until 0.9 s, then sways, punches in and rolls its head.
      const [early, rest, moving] = await Promise.all([greyFrame(output, 0.4), greyFrame(output, 0.5), greyFrame(output, 2.5)]);
      const moved = meanDifference(rest, moving);
      const still = meanDifference(early, rest);
      expect(rest.equals(moving)).toBe(false);
      expect(moved).toBeGreaterThan(1);
      // The change is the reference's motion, not noise: at rest the avatar changes far less (only
      // by the landmarks' jitter on the re-encoded still, and the hand-held camera's sway, which a
      // tenth of a second apart has moved the picture by a few pixels).
      expect(moved).toBeGreaterThan(2 * still);
    });
  },
);

describe('references that cannot drive a reaction', () => {
  test('a clip without any face (a test pattern) is invalid_input', async () => {
    const clip = path.join(dir, 'pattern.mp4');
    await runFfmpeg(['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=540x960:rate=30:duration=3', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-f', 'mp4', '-y', fileArg(clip)]);
    await bucket.putFile('references/pattern.mp4', clip);
    const error = await failureOf(engine.reactionFromMotion(avatar, 'references/pattern.mp4', { seed: 1, outputKey: 'reactions/pattern.mp4' }));
    expect(error.code).toBe('invalid_input');
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/face/i);
    expect(existsSync(blobPath('reactions/pattern.mp4'))).toBe(false);
  });

  test('an audio-only reference is invalid_input', async () => {
    const clip = path.join(dir, 'audio.m4a');
    await runFfmpeg(['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-c:a', 'aac', '-f', 'ipod', '-y', fileArg(clip)]);
    await bucket.putFile('references/audio.m4a', clip);
    const error = await failureOf(engine.reactionFromMotion(avatar, 'references/audio.m4a', { seed: 1, outputKey: 'reactions/audio.mp4' }));
    expect(error.code).toBe('invalid_input');
    expect(error.retryable).toBe(false);
    expect(existsSync(blobPath('reactions/audio.mp4'))).toBe(false);
  });
});
