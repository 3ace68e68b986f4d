import { createCanvas } from '@napi-rs/canvas';
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NEUTRAL_FACE } from '#functions/render/reaction/animation';
import { motionSource } from '#functions/render/face/index';
import { detectFace } from '#functions/render/face/image-face';
import { measureFace, type FaceMeasures } from '#functions/render/face/landmarks';
import { drawPhotoFrame, preparePhoto } from '#functions/render/face/photo-renderer';
import {
  analyseReference,
  fillGaps,
  framesFromReference,
  motionToFrames,
} from '#functions/render/face/reference-motion';
import { ffmpegPath } from '#functions/render/ffmpeg/binaries';
import { EngineError } from '#ports/engine';
import { makeFixture } from '#test-support/media-fixtures';
import { realFacePng, syntheticMesh } from './synthetic-face';
const { abs, max, PI, round, sin } = Math;

const NO_FACE = 'No face found in the reference clip; use a clip where one person faces the camera';

async function failureOf(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

let dir: string;
beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'rs-reference-motion-'));
});
afterAll(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

describe('clips that cannot give motion', () => {
  test('a video with no face anywhere is invalid_input, with a message the user can act on', async () => {
    const clip = await makeFixture('vertical-mp4'); // test pattern, 2 s
    const error = await failureOf(framesFromReference(clip, { fps: 30 }));
    expect(error.code).toBe('invalid_input');
    expect(error.message).toBe(NO_FACE);
  });

  test('audio only, a picture named .mp4, random bytes, a truncated file: invalid_input', async () => {
    for (const kind of ['audio-only-m4a', 'png-as-mp4', 'random-bytes', 'truncated-mp4'] as const) {
      const error = await failureOf(framesFromReference(await makeFixture(kind), { fps: 30 }));
      expect([kind, error.code]).toEqual([kind, 'invalid_input']);
    }
  });

  test('an aborted signal stops the analysis as cancelled', async () => {
    const clip = await makeFixture('vertical-mp4');
    const before = new AbortController();
    before.abort();
    expect((await failureOf(framesFromReference(clip, { signal: before.signal }))).code).toBe('cancelled');
    const during = new AbortController();
    const pending = framesFromReference(clip, { signal: during.signal });
    setTimeout(() => during.abort(), 30);
    expect((await failureOf(pending)).code).toBe('cancelled');
  });
});

describe('motionToFrames', () => {
  const base = measureFace(syntheticMesh());
  const withMouth = (open: number): FaceMeasures => ({ ...base, mouthOpen: base.mouthOpen + open, headPose: { ...base.headPose } });

  test('frames are relative to the clip\'s own rest, resampled to the output rate, held past its end', () => {
    // 10 samples a second for 2 s: rest for 0.5 s, mouth open wide, then closed again.
    const samples = Array.from({ length: 20 }, (_, k) => withMouth(k >= 5 && k < 15 ? 0.45 : 0));
    const frames = motionToFrames(samples, { sampleFps: 10, fps: 30, frameCount: 90 });
    expect(frames).toHaveLength(90);
    expect(frames[0]!.face).toMatchObject({ mouthOpen: 0, browRaise: 0, smile: 0, eyeOpen: 1, headRoll: 0 });
    expect(frames[30]!.face.mouthOpen).toBeGreaterThan(0.8); // 1 s: open
    expect(frames[80]!.face.mouthOpen).toBeLessThan(0.05); // past the clip: the last pose, closed
    expect(frames[80]).toEqual(frames[89]);
    for (const f of frames) expect(f.camera.zoom).toBeCloseTo(1, 5);
  });

  test('samples without a face are bridged; a clip with no face at all gives rest frames', () => {
    expect(fillGaps([null, 2, null, null, 8, null])).toEqual([2, 2, 4, 6, 8, 8]);
    const samples = [withMouth(0), null, null, withMouth(0.45), withMouth(0.45), withMouth(0.45)];
    const frames = motionToFrames(samples, { sampleFps: 10, fps: 10, frameCount: 6 });
    expect(frames[1]!.face.mouthOpen).toBeGreaterThan(0.1); // on its way up, not a drop to rest
    expect(frames[1]!.face.mouthOpen).toBeLessThan(frames[3]!.face.mouthOpen);
    const none = motionToFrames([null, null], { sampleFps: 10, fps: 30, frameCount: 3 });
    expect(none.map((f) => f.face)).toEqual([NEUTRAL_FACE, NEUTRAL_FACE, NEUTRAL_FACE]);
  });
});

describe('a reference clip with a face (a real photo, animated by the photo renderer, encoded)', () => {
  const fps = 15;
  const seconds = 2.4;
  /** Head roll (12° at the peak) and mouth of the clip over time: rest, then tilt and open, then rest. */
  const curve = (t: number) => max(0, sin((PI * (t - 0.3)) / 1.6)) * (t > 0.3 && t < 1.9 ? 1 : 0);
  let clip: string;

  beforeAll(async () => {
    const photo = await realFacePng();
    const W = 360, H = 640;
    const prepared = await preparePhoto(photo, await detectFace(photo), { width: W, height: H });
    const ctx = createCanvas(W, H).getContext('2d');
    clip = path.join(dir, 'reference.mp4');
    const ff = spawn(ffmpegPath(), ['-hide_banner', '-v', 'error', '-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', `${W}x${H}`, '-r', String(fps), '-i', 'pipe:0', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-y', clip], { stdio: ['pipe', 'ignore', 'inherit'] });
    const done = new Promise((resolve) => ff.on('close', resolve));
    for (let i = 0; i < round(fps * seconds); i++) {
      const k = curve(i / fps);
      drawPhotoFrame(ctx, prepared, { face: { ...NEUTRAL_FACE, mouthOpen: k, headRoll: 12 * k }, camera: { zoom: 1, offsetX: 0, offsetY: 0, rotation: 0 } });
      const data = ctx.getImageData(0, 0, W, H).data;
      if (!ff.stdin.write(Buffer.from(data.buffer, data.byteOffset, data.length))) await new Promise((r) => ff.stdin.once('drain', r));
    }
    ff.stdin.end();
    expect(await done).toBe(0);
  }, 60_000);

  test('the avatar follows the clip\'s timing; a short clip is held to 3 s', async () => {
    const result = await analyseReference(clip, { fps: 30 });
    expect(result.samplesWithFace).toBe(result.samples);
    const frames = result.frames;
    expect(frames).toHaveLength(90); // 2.4 s → the 3 s minimum
    const at = (t: number) => frames[round(t * 30)]!.face;
    expect(abs(at(0.1).headRoll)).toBeLessThan(2);
    // The detector reads a drawn roll at about half its size on a face this small: 12° drawn reads 5-6°
    // (8° read 4.4° until the photo's margin grew for the hand-held camera, and 3.1° after).
    expect(at(1.1).headRoll).toBeGreaterThan(4);
    expect(at(1.1).headRoll).toBeLessThan(12);
    expect(abs(at(2.8).headRoll)).toBeLessThan(2.5);
    expect(at(1.1).mouthOpen).toBeGreaterThan(at(0.1).mouthOpen + 0.1);
    expect(frames[89]).toEqual(frames[80]); // held past the clip's end
  });

  test('maxFrames cuts the reaction; the engine-facing MotionSource gives the same frames', async () => {
    const cut = await motionSource.framesFromReference(clip, 30, 45, {});
    expect(cut).toHaveLength(45);
  });
});
