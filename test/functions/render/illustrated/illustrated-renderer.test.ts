/**
 * The illustrated scene drawn smaller (the engine draws at RENDER_SIZE and lets ffmpeg scale up) is
 * the same picture as at full size: every length follows the frame, the camera's offsets included.
 */
import { createCanvas } from '@napi-rs/canvas';
import { rigFromPrompt } from '#render';
import { reactionFrames } from '#functions/render/reaction/expression-curve';
import { prepareIllustratedScene } from '#functions/render/illustrated/illustrated-renderer';
import { RENDER_SIZE } from '#adapters/engines/local/engine';
import type { ReactionFrame } from '#functions/render/reaction/animation';
const { abs } = Math;

const SMALL = { width: 270, height: 480 };

/** A frame of the scene drawn at `size`, brought to 270×480 RGBA for comparison. */
async function drawnAt(size: { width: number; height: number }, frames: ReactionFrame[], index: number): Promise<Uint8ClampedArray> {
  const rig = rigFromPrompt('man with a beard and a blue hoodie', 3);
  const scene = await prepareIllustratedScene(rig, frames, { seed: 3, ...size });
  const canvas = createCanvas(size.width, size.height);
  scene.drawFrame(canvas.getContext('2d'), frames[index]!, index);
  const small = createCanvas(SMALL.width, SMALL.height);
  small.getContext('2d').drawImage(canvas, 0, 0, SMALL.width, SMALL.height);
  return small.getContext('2d').getImageData(0, 0, SMALL.width, SMALL.height).data;
}

const meanAbsDiff = (a: Uint8ClampedArray, b: Uint8ClampedArray) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) if (i % 4 !== 3) sum += abs(a[i]! - b[i]!);
  return sum / ((a.length / 4) * 3);
};

describe('the illustrated scene at the render size', () => {
  const frames = reactionFrames({ emotion: 'shocked', intensity: 0.9, durationS: 2, seed: 3 });
  // A camera far off centre, so a shift that did not follow the frame size would show.
  const moved: ReactionFrame[] = frames.map((f) => ({ ...f, camera: { ...f.camera, offsetX: 60, offsetY: -45 } }));

  test('a frame drawn at the render size matches the full-size frame, camera moves included', async () => {
    const index = 30;
    const full = await drawnAt({ width: 1080, height: 1920 }, moved, index);
    const small = await drawnAt(RENDER_SIZE, moved, index);
    const centred = await drawnAt(RENDER_SIZE, frames, index);
    expect(meanAbsDiff(small, full)).toBeLessThan(2);
    // The comparison can tell: the same frame without the camera's offset is clearly further away.
    expect(meanAbsDiff(centred, full)).toBeGreaterThan(3 * meanAbsDiff(small, full));
  });
});
