/**
 * The illustrated scene says where it draws the eyes and mouth in each frame (the caption keeps off
 * that box): the pixels that change between a resting and an open-mouthed, eyes-shut face all lie in
 * the box the scene reports for that frame, through head moves, the camera's punch-in and the
 * hand-held camera that films it.
 */
import { createCanvas } from '@napi-rs/canvas';
import { rigFromPrompt } from '#render';
import { prepareIllustratedScene } from '#functions/render/illustrated/illustrated-renderer';
import { clipFaceBox, type FaceBox } from '#functions/render/reaction/reaction-clip';
import { handHeld } from '#functions/render/reaction/camera';
import { changedPixels } from '#test-support/pixel-diff';
import { NEUTRAL_FACE, REST_CAMERA, type ReactionFrame } from '#functions/render/reaction/animation';
const { hypot } = Math;

const SIZE = { width: 540, height: 960 };
const rig = rigFromPrompt('woman with curly hair and glasses', 5);

/** The box around every pixel that differs visibly between two drawings of the scene. */
async function changedBox(a: ReactionFrame, b: ReactionFrame, handheldAt?: number): Promise<{ box: FaceBox; changed: number; reported: FaceBox }> {
  const bare = await prepareIllustratedScene(rig, [a, b], { seed: 5, ...SIZE });
  const scene = handheldAt === undefined ? bare : handHeld(bare, 5);
  const index = handheldAt ?? 0;
  const draw = (f: ReactionFrame) => {
    const canvas = createCanvas(SIZE.width, SIZE.height);
    scene.drawFrame(canvas.getContext('2d'), f, index);
    return canvas.getContext('2d').getImageData(0, 0, SIZE.width, SIZE.height).data;
  };
  const { box, changed } = changedPixels(draw(a), draw(b), SIZE.width, SIZE.height);
  const reported = scene.faceBox!(a, index)!;
  expect(scene.faceBox!(b, index)).toEqual(reported);
  return { box, changed, reported };
}

const inside = (inner: FaceBox, outer: FaceBox, slack: number) =>
  inner.x >= outer.x - slack && inner.y >= outer.y - slack && inner.x + inner.width <= outer.x + outer.width + slack && inner.y + inner.height <= outer.y + outer.height + slack;

describe('the illustrated face box', () => {
  const resting = (frame: Partial<ReactionFrame> = {}): ReactionFrame => ({ face: { ...NEUTRAL_FACE }, camera: { ...REST_CAMERA }, ...frame });
  const reacting = (f: ReactionFrame): ReactionFrame => ({ ...f, face: { ...f.face, mouthOpen: 0.95, eyeOpen: 0.05 } });

  const moved = resting({ face: { ...NEUTRAL_FACE, headYaw: 12, headPitch: -8, headRoll: 9 }, camera: { zoom: 1.35, offsetX: 40, offsetY: -30, rotation: 4 } });
  test.each([
    ['at rest', resting(), undefined],
    ['head turned and tilted, camera punched in and moved', moved, undefined],
    ['the same, filmed hand-held', moved, 17],
  ])('%s: what the expression changes lies inside the box, and the box is no larger than a face', async (_name, frame, handheldAt) => {
    const { box, changed, reported } = await changedBox(frame, reacting(frame), handheldAt);
    expect(changed).toBeGreaterThan(300);
    expect(inside(box, reported, 2)).toBe(true);
    // Eyes to mouth, not the head: well under half the frame's width.
    expect(reported.width).toBeLessThan(SIZE.width * 0.45);
    expect(reported.width * reported.height).toBeLessThan(box.width * box.height * 3);
  });

  test('filmed hand-held, the box moves as far as the drawn face does', async () => {
    const centre = (b: FaceBox) => [b.x + b.width / 2, b.y + b.height / 2] as const;
    const still = await changedBox(moved, reacting(moved));
    // Frames 0 and 17 of seed 5's take: the sway at its top and at its bottom, 19 px apart on the output.
    for (const index of [0, 17]) {
      const filmed = await changedBox(moved, reacting(moved), index);
      const drawn = centre(filmed.box).map((v, k) => v - centre(still.box)[k]!);
      const reported = centre(filmed.reported).map((v, k) => v - centre(still.reported)[k]!);
      expect(hypot(drawn[0]!, drawn[1]!)).toBeGreaterThan(3);
      expect(hypot(drawn[0]! - reported[0]!, drawn[1]! - reported[1]!)).toBeLessThan(1.5);
    }
  });

  test('over a clip, the box on the output frame holds every frame’s box, scaled from the render size', async () => {
    const frames = [resting(), resting({ camera: { zoom: 1.3, offsetX: 0, offsetY: 60, rotation: 0 } })];
    const scene = await prepareIllustratedScene(rig, frames, { seed: 5, ...SIZE });
    const union = clipFaceBox(scene, frames, 1080, 1920)!;
    for (const [i, frame] of frames.entries()) {
      const own = scene.faceBox!(frame, i)!;
      expect(inside({ x: own.x * 2, y: own.y * 2, width: own.width * 2, height: own.height * 2 }, union, 1)).toBe(true);
    }
    expect(clipFaceBox({ width: 540, height: 960, drawFrame: () => undefined }, frames, 1080, 1920)).toBeNull();
  });
});
