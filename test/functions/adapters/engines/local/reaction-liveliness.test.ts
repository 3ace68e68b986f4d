/**
 * Issue 27, measured on the clips the engine actually writes (createLocalEngineWithFaces, a folder for
 * the bucket): a reaction lives for its whole length, an illustrated avatar and a photo alike, and a
 * reaction from a reference clip follows the reference's head. The face region is where human finds
 * the face in the encoded frames (functions/render/face/face-motion.ts), as the bench measures it.
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { makeReferenceClip, realFacePng } from '#bench/reference-clip';
import type { LocalEngine } from '#adapters/engines/local/engine';
import { createLocalEngineWithFaces } from '#adapters/engines/local/engine-with-faces';
import { fileArg, findFaceBox, freezes, lumaFrameAt, measureFaceMotion, runFfmpeg, seamStep, subjectOf } from '#render';
import type { AvatarRef } from '#ports/engine';
const { abs, max } = Math;

let dir: string;
let bucketDir: string;
let engine: LocalEngine;
let illustrated: AvatarRef;
let photo: AvatarRef;

const blobPath = (key: string) => path.join(bucketDir, key.replaceAll('/', '_'));
const bucket = {
  putFile: (key: string, file: string) => fsp.copyFile(file, blobPath(key)),
  getToFile: (key: string, file: string) => fsp.copyFile(blobPath(key), file),
};

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'rs-liveliness-'));
  bucketDir = path.join(dir, 'bucket');
  await fsp.mkdir(bucketDir);
  engine = await createLocalEngineWithFaces({ blobs: bucket, tmpDir: dir });
  const made = await engine.avatarFromPrompt('woman with curly red hair, glasses and a green sweater', { seed: 100, outputKey: 'avatars/1.png' });
  illustrated = { id: 1, source: 'prompt', imageKey: made.image.key, width: made.width, height: made.height, rig: made.rig };
  await fsp.writeFile(blobPath('uploads/face.png'), await realFacePng());
  const rig = await engine.rigForUpload!('uploads/face.png', {});
  expect(rig).not.toBeNull();
  photo = { id: 2, source: 'upload', imageKey: 'uploads/face.png', width: 600, height: 600, rig: rig ?? undefined };
}, 120_000);

afterAll(async () => {
  if (dir) await fsp.rm(dir, { recursive: true, force: true });
});

/** Each clip is rendered once for the suite: a render is seconds of CPU, and two specs read the photo's. */
const clips = new Map<string, Promise<string>>();
function promptClip(avatar: AvatarRef, prompt: string, name: string, seed = 7): Promise<string> {
  if (!clips.has(name)) {
    clips.set(name, engine.reactionFromPrompt(avatar, prompt, { seed, outputKey: `reactions/${name}.mp4` }).then(() => blobPath(`reactions/${name}.mp4`)));
  }
  return clips.get(name)!;
}

/** The prompt reactions both the face-motion and the whole-frame specs read (each rendered once). */
const PROMPT_CASES = [
  ['an illustrated avatar, shocked', 'illustrated', 'OMG no way, shocked by the price'],
  ['an illustrated avatar, in love (a calm emotion)', 'illustrated', 'in love with this'],
  ['a photo avatar, laughing', 'photo', 'laughing so hard'],
] as const;
const caseClip = (kind: 'illustrated' | 'photo', prompt: string) =>
  promptClip(kind === 'photo' ? photo : illustrated, prompt, kind === 'photo' ? 'photo-laughing' : `${kind}-${prompt.length}`);

/** Whether a clip moves from its first frames: no freeze that starts within the first 0.1 s. */
async function frozenAtStart(clip: string): Promise<boolean> {
  return (await freezes(clip, { durationS: 1 })).some((f) => f.startS < 0.1);
}

describe('a reaction lives for its whole length', () => {
  test.each(PROMPT_CASES)('%s: every 1 s window moves the face by >= 1.0, from the first 0.1 s', async (_name, kind, prompt) => {
    const clip = await caseClip(kind, prompt);
    const motion = await measureFaceMotion(clip);
    expect(motion.windows).toHaveLength(4);
    expect(motion.minWindow).toBeGreaterThanOrEqual(1);
    expect(await frozenAtStart(clip)).toBe(false);
  }, 240_000);
});

/**
 * Per frame, how far each outermost row and column of the picture is from the one 4 px in (mean
 * absolute luma difference, the largest of the four edges): an edge of the canvas brought into view by
 * the camera would show as a dark line there, where the picture carries on smoothly.
 */
async function edgeSteps(clip: string): Promise<number[]> {
  const raw = path.join(dir, `${path.basename(clip)}.edges`);
  // Each edge as a 5-pixel strip, turned so the frame's own edge is the strip's first row.
  const strips = '[0:v]format=gray,split=4[a][b][c][d];[a]crop=iw:5:0:0[t];[b]crop=iw:5:0:ih-5,vflip[u];[c]crop=5:ih:0:0,transpose=1[l];[d]crop=5:ih:iw-5:0,transpose=2[r];[t][u][l][r]hstack=4';
  await runFfmpeg(['-v', 'error', '-i', fileArg(clip), '-filter_complex', strips, '-an', '-f', 'rawvideo', '-y', fileArg(raw)]);
  const bytes = await fsp.readFile(raw);
  const lengths = [1080, 1080, 1920, 1920];
  const width = lengths.reduce((a, b) => a + b);
  const steps: number[] = [];
  for (let frame = 0; frame < bytes.length / (width * 5); frame++) {
    const row = (k: number) => bytes.subarray(frame * width * 5 + k * width, frame * width * 5 + (k + 1) * width);
    const [edge, inside] = [row(0), row(4)];
    let from = 0, worst = 0;
    for (const length of lengths) {
      let sum = 0;
      for (let x = from; x < from + length; x++) sum += abs(edge[x]! - inside[x]!);
      worst = max(worst, sum / length);
      from += length;
    }
    steps.push(worst);
  }
  return steps;
}

describe('filmed hand-held: the whole frame lives, and never shows an edge', () => {
  // Before the hand-held camera only the person moved, and whole-frame freezedetect found 9 freezes of
  // 0.1 s in the shocked clip from 0.6 s on: the backdrop stood still.
  test.each(PROMPT_CASES)('%s: whole-frame freezedetect (n=0.003, d=0.1 s) finds no freeze anywhere in the clip', async (_name, kind, prompt) => {
    const clip = await caseClip(kind, prompt);
    expect(await freezes(clip)).toEqual([]);
  }, 240_000);

  test('the calmest emotion (crying) lives too: the room behind moves with the camera, its light turns slowly', async () => {
    // Seed 2 had 4 freezes of 0.1 s over a bare gradient at ±10 px once a second: the crying head
    // barely moves, and a gradient shifted a pixel hardly changes. Out-of-focus lights in the backdrop
    // and a quicker sway (1.1 turns a second) left none there, but seed 3 still froze at 0.7 s (and 23
    // at 3 s) until the sad mood got the faint turning rays the lively ones have (palette.ts MOODS).
    const clip = await promptClip(illustrated, 'crying, this is so sad', 'illustrated-crying', 3);
    expect(await freezes(clip)).toEqual([]);
  }, 240_000);

  test.each([
    ['an illustrated avatar', 'illustrated', 'OMG no way, shocked by the price'],
    ['a photo avatar', 'photo', 'laughing so hard'],
  ] as const)('%s: in every frame the border rows and columns carry the picture on (no edge of the canvas)', async (_name, kind, prompt) => {
    const clip = await promptClip(kind === 'photo' ? photo : illustrated, prompt, kind === 'photo' ? 'photo-laughing' : `${kind}-${prompt.length}`);
    const steps = await edgeSteps(clip);
    expect(steps).toHaveLength(120);
    // The photo's own content at its sides steps by up to ~4; a 1-3 px band of exposed canvas, 40-100.
    expect(max(...steps)).toBeLessThanOrEqual(10);
  }, 240_000);
});

describe('a finished illustrated video, its hook burnt in', () => {
  // Issue 27: human found this avatar's face (no glasses, dizzy eyes at the peak) in one frame of eight
  // of the bare clip, and in none once the hook lay across its brow, so the looks bench had nothing to measure.
  test('human finds the face under the caption and every 1 s window moves it by >= 1.0', async () => {
    const made = await engine.avatarFromPrompt('mind blown', { seed: 5, outputKey: 'avatars/3.png' });
    const plain: AvatarRef = { id: 3, source: 'prompt', imageKey: made.image.key, width: made.width, height: made.height, rig: made.rig };
    const caption = { text: 'POV: the serum that finally works 😱', position: 'top', size: 'medium', style: 'outline' } as const;
    const clip = await engine.reactionFromPrompt(plain, 'mind blown', { seed: 5, outputKey: 'reactions/captioned.mp4', caption });
    expect(clip.captioned).not.toBeNull();
    const file = blobPath('reactions/captioned.mp4');
    const face = await findFaceBox(file);
    expect(face).not.toBeNull();
    // What human found is the face the engine drew: it holds the middle of the engine's eyes-to-mouth box.
    const drawn = clip.faceBox!;
    const [cx, cy] = [drawn.x + drawn.width / 2, drawn.y + drawn.height / 2];
    expect(cx > face!.x && cx < face!.x + face!.width && cy > face!.y && cy < face!.y + face!.height).toBe(true);
    expect((await measureFaceMotion(file, { box: face! })).minWindow).toBeGreaterThanOrEqual(1);
  }, 120_000);
});

describe('a photo avatar framed like a selfie video', () => {
  test('the frame is filled, no seam where the photo meets its extension (row step <= 5 away from the face)', async () => {
    const clip = await promptClip(photo, 'laughing so hard', 'photo-laughing');
    const face = await findFaceBox(clip);
    expect(face).not.toBeNull();
    // The face spans about half the frame's width.
    expect(face!.width).toBeGreaterThan(0.4 * 1080);
    for (const atS of [0.2, 1.5, 3.5]) {
      const { luma, width, height } = await lumaFrameAt(clip, atS);
      expect(seamStep(luma, width, height, subjectOf(face!, height)).step).toBeLessThanOrEqual(5);
    }
  }, 120_000);
});

describe('a reaction from a reference clip', () => {
  test('follows at least 80 % of the reference\'s head movement, measured the same way on both', async () => {
    const reference = path.join(dir, 'reference.mp4');
    await makeReferenceClip(await realFacePng(), reference, { durationS: 4 });
    await fsp.copyFile(reference, blobPath('references/1.mp4'));
    await engine.reactionFromMotion(photo, 'references/1.mp4', { seed: 21, outputKey: 'reactions/motion.mp4' });
    // At one face size: the reference is 540×960, the reaction 1080×1920.
    const source = await measureFaceMotion(reference, { faceWidth: 256 });
    const followed = await measureFaceMotion(blobPath('reactions/motion.mp4'), { faceWidth: 256 });
    expect(followed.mean / source.mean).toBeGreaterThanOrEqual(0.8);
    // And it does not overshoot into jitter: no more than a third again as much.
    expect(followed.mean / source.mean).toBeLessThan(1.35);
    // The reference rests for its first 0.9 s and the clip holds its last pose: before the hand-held
    // camera, whole-frame freezedetect found the photo still there (0.13-0.7 s, and from 3.83 s).
    expect(await freezes(blobPath('reactions/motion.mp4'))).toEqual([]);
  }, 180_000);
});
