/**
 * The hand-held camera (functions/render/reaction/camera.ts): seeded, within its limits, always
 * moving, never showing an edge of the picture, and the face box it reports moves with the picture.
 */
import { createCanvas } from '@napi-rs/canvas';
import { rigFromPrompt } from '#render';
import { RENDER_SIZE } from '#adapters/engines/local/engine';
import { prepareIllustratedScene } from '#functions/render/illustrated/illustrated-renderer';
import { inverseAt, transformedBox } from '#functions/render/reaction/affine';
import { HANDHELD_LIMITS, HANDHELD_OVERSCAN, handHeld, handheldMatrix, handheldPose, handheldReach } from '#functions/render/reaction/camera';
import { reactionFrames } from '#functions/render/reaction/expression-curve';
import type { FrameRenderer } from '#functions/render/reaction/reaction-clip';
const { abs, hypot, max } = Math;

const FPS = 30;
const SEEDS = [0, 1, 7, 42, 1234567];
/** Five seconds (the longest reaction) of each seed's poses. */
const takes = SEEDS.map((seed) => Array.from({ length: 5 * FPS }, (_, i) => handheldPose(seed, i / FPS)));

describe('the hand-held camera', () => {
  test('same seed, same camera; another seed, another take', () => {
    expect(handheldPose(7, 1.234)).toEqual(handheldPose(7, 1.234));
    expect(handheldPose(8, 1.234)).not.toEqual(handheldPose(7, 1.234));
  });

  test('stays within its limits: a hundredth of the width, a percent of zoom, a fraction of a degree', () => {
    for (const pose of takes.flat()) {
      expect(max(abs(pose.offsetX), abs(pose.offsetY))).toBeLessThanOrEqual(HANDHELD_LIMITS.offsetPx);
      expect(pose.zoom).toBeGreaterThanOrEqual(HANDHELD_LIMITS.zoom[0]);
      expect(pose.zoom).toBeLessThanOrEqual(HANDHELD_LIMITS.zoom[1]);
      expect(abs(pose.roll)).toBeLessThanOrEqual(HANDHELD_LIMITS.rollDeg);
    }
    expect(HANDHELD_LIMITS.offsetPx).toBeLessThan(1080 * 0.015);
    expect(HANDHELD_LIMITS.zoom[1]).toBeLessThanOrEqual(1.02);
    expect(HANDHELD_LIMITS.rollDeg).toBeLessThan(1);
  });

  test('never pauses: every two frames the picture moves by at least 2 px, and never jumps (at most 6)', () => {
    for (const take of takes) {
      for (let i = 2; i < take.length; i++) {
        const moved = hypot(take[i]!.offsetX - take[i - 2]!.offsetX, take[i]!.offsetY - take[i - 2]!.offsetY);
        expect({ frame: i, moved: moved >= 2 && moved <= 6 }).toEqual({ frame: i, moved: true });
      }
    }
  });

  test.each([['the output', 1080, 1920], ['the illustrated render size', RENDER_SIZE.width, RENDER_SIZE.height], ['the photo render size', 720, 1280]])(
    'at %s, no corner of the frame ever comes from further out than the overscan renderers paint',
    (_name, width, height) => {
      const overscan = HANDHELD_OVERSCAN * max(width, height);
      expect(handheldReach(width, height)).toBeLessThan(overscan);
      let furthest = 0;
      for (const pose of takes.flat()) {
        for (const [qx, qy] of [[0, 0], [width, 0], [0, height], [width, height]] as const) {
          const [x, y] = inverseAt(handheldMatrix(pose, width, height), qx, qy)!;
          furthest = max(furthest, -x, -y, x - width, y - height);
        }
      }
      expect(furthest).toBeLessThanOrEqual(handheldReach(width, height));
    },
  );
});

describe('a renderer filmed hand-held', () => {
  const frames = reactionFrames({ emotion: 'shocked', intensity: 1, durationS: 4, seed: 7 });
  const { width, height } = RENDER_SIZE;
  let filmed: FrameRenderer;
  let bare: FrameRenderer;
  beforeAll(async () => {
    bare = await prepareIllustratedScene(rigFromPrompt('woman with curly red hair, glasses and a green sweater', 7), frames, { seed: 7, ...RENDER_SIZE });
    filmed = handHeld(bare, 7);
  });

  test('same seed, same pixels: a second scene filmed with the same seed draws byte-identical frames; another seed moves them', async () => {
    const again = handHeld(await prepareIllustratedScene(rigFromPrompt('woman with curly red hair, glasses and a green sweater', 7), frames, { seed: 7, ...RENDER_SIZE }), 7);
    const pixels = (renderer: FrameRenderer, index: number) => {
      const canvas = createCanvas(width, height);
      renderer.drawFrame(canvas.getContext('2d'), frames[index]!, index);
      return canvas.data();
    };
    for (const index of [0, 45, 90]) expect(pixels(again, index).equals(pixels(filmed, index))).toBe(true);
    expect(pixels(handHeld(bare, 8), 45).equals(pixels(filmed, 45))).toBe(false);
  });

  test('reports the face box where the camera put it', () => {
    for (const index of [0, 37, 119]) {
      const moved = transformedBox(handheldMatrix(handheldPose(7, index / FPS), width, height), bare.faceBox!(frames[index]!, index)!);
      expect(filmed.faceBox!(frames[index]!, index)).toEqual(moved);
    }
  });

  test('the illustrated scene covers the whole frame in every frame: not one pixel of the canvas shows through at the border', () => {
    const canvas = createCanvas(width, height);
    const ctx = canvas.getContext('2d');
    // How far out a frame's corners come from; the eight frames that reach furthest are drawn.
    const reach = (i: number) => max(...[[0, 0], [width, 0], [0, height], [width, height]].map(([qx, qy]) => {
      const [x, y] = inverseAt(handheldMatrix(handheldPose(7, i / FPS), width, height), qx!, qy!)!;
      return max(-x, -y, x - width, y - height);
    }));
    const furthest = frames.map((_, i) => i).sort((a, b) => reach(b) - reach(a)).slice(0, 8);
    const border = [...Array(width).keys()].flatMap((x) => [[x, 0], [x, height - 1]]).concat([...Array(height).keys()].flatMap((y) => [[0, y], [width - 1, y]]));
    for (const index of furthest) {
      ctx.save();
      // A colour no scene uses: any of it left at the border is canvas, not picture.
      ctx.fillStyle = '#ff00ff';
      ctx.fillRect(0, 0, width, height);
      filmed.drawFrame(ctx, frames[index]!, index);
      ctx.restore();
      const px = ctx.getImageData(0, 0, width, height).data;
      const uncovered = border.filter(([x, y]) => {
        const o = (y! * width + x!) * 4;
        return px[o]! > 200 && px[o + 1]! < 60 && px[o + 2]! > 200;
      }).length;
      expect({ index, uncovered }).toEqual({ index, uncovered: 0 });
    }
  });
});
