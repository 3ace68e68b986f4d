/**
 * A reaction opens already moving (functions/render/reaction/opening.ts): rendered clips, illustrated
 * and photo, with and without a caption (a preview), checked with ffmpeg's freezedetect as a viewer's
 * "nothing happens" would be: no frozen stretch in the first second.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rigFromPrompt } from '#render';
import { emotionFromPrompt } from '#adapters/engines/local/emotion-prompt';
import { realFacePng } from '#bench/reference-clip';
import { detectFace, fileArg, photoRenderer, prepareIllustratedScene, reactionFrames, renderCaptionPng, renderClipToFile, runFfmpeg, type FrameRenderer, type ReactionFrame } from '#render';
const { abs } = Math;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rs-opening-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Where freezedetect (n=0.003, d=0.1 s) finds frozen stretches starting, in seconds. */
async function freezeStarts(clip: string): Promise<number[]> {
  const report = join(dir, 'freezes.txt');
  await runFfmpeg(['-v', 'error', '-i', fileArg(clip), '-vf', `freezedetect=n=0.003:d=0.1,metadata=mode=print:key=lavfi.freezedetect.freeze_start:file=${report}`, '-an', '-f', 'null', '-']);
  const text = await readFile(report, 'utf8').catch(() => '');
  return [...text.matchAll(/freeze_start=([\d.]+)/g)].map((m) => Number(m[1]));
}

/** "a woman in her 30s, shocked", as the local engine reads it: its first 1.2 s. */
function openingFrames(): ReactionFrame[] {
  const read = emotionFromPrompt('a woman in her 30s, shocked');
  return reactionFrames({ emotion: read.emotion, intensity: read.intensity, durationS: 1.2, seed: 7 });
}

async function render(name: string, renderer: FrameRenderer, frames: ReactionFrame[], caption = false): Promise<string> {
  const file = join(dir, `${name}.mp4`);
  let overlay;
  if (caption) {
    const image = await renderCaptionPng({ text: 'Wait for the price 😱', position: 'top', size: 'medium' });
    overlay = { path: join(dir, `${name}-caption.png`), box: image.box };
    await writeFile(overlay.path, image.png);
  }
  await renderClipToFile(renderer, frames, file, { overlay });
  return file;
}

describe('the first second of a reaction', () => {
  test('the head and the camera move from the first frame: no two of the first twelve frames are alike', () => {
    const frames = openingFrames();
    const pose = (f: ReactionFrame) => [f.face.headYaw, f.face.headPitch, f.face.headRoll, f.camera.zoom, f.camera.offsetX, f.camera.offsetY, f.camera.rotation];
    for (let i = 1; i < 12; i++) {
      const moved = pose(frames[i]!).reduce((sum, v, k) => sum + abs(v - pose(frames[i - 1]!)[k]!), 0);
      expect({ frame: i, moved: moved > 0.05 }).toEqual({ frame: i, moved: true });
    }
  });

  test('an illustrated prompt video has no frozen stretch in its first second', async () => {
    const frames = openingFrames();
    const scene = await prepareIllustratedScene(rigFromPrompt('a woman in her 30s, shocked', 7), frames, { seed: 7, width: 540, height: 960 });
    expect((await freezeStarts(await render('illustrated', scene, frames))).filter((s) => s < 1)).toEqual([]);
  }, 60_000);

  test('a photo avatar, and its captioned preview, have no frozen stretch in their first second', async () => {
    const face = join(dir, 'face.png');
    await writeFile(face, await realFacePng());
    const frames = openingFrames();
    const photo = await photoRenderer.prepare(face, await detectFace(face), { width: 720, height: 1280 });
    expect((await freezeStarts(await render('photo', photo, frames))).filter((s) => s < 1)).toEqual([]);
    expect((await freezeStarts(await render('preview', photo, frames, true))).filter((s) => s < 1)).toEqual([]);
  }, 60_000);
});
