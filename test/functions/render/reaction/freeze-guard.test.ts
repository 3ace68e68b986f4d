import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FREEZE_BUMP_REACH_PX, FREEZE_NOISE, FreezeGuard, frameDifference, sampleFrame, type Bump } from '#functions/render/reaction/freeze-guard';
import { renderClipToFile, type FrameRenderer } from '#functions/render/reaction/reaction-clip';
import { reactionFrames } from '#functions/render/reaction/expression-curve';
import { prepareIllustratedScene } from '#functions/render/illustrated/illustrated-renderer';
import { rigFromPrompt } from '#render';
import { freezes } from '#render';
import { FACE_GAP_PX } from '#functions/render/caption/caption';
const { hypot, sin } = Math;

const W = 216, H = 384;

/** A soft, low-contrast picture (a tinted backdrop's kind), shifted by `dx`, `dy` pixels and by `drift` each frame. */
function picture([dx, dy]: Bump, frameIndex = 0, drift = 0): Uint8Array {
  const rgba = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const i = (y * W + x) * 4;
      const shade = 110 + 6 * sin((x - dx - drift * frameIndex) / 9) + 4 * sin((y - dy) / 13);
      rgba[i] = shade;
      rgba[i + 1] = shade + 20;
      rgba[i + 2] = shade - 10;
      rgba[i + 3] = 255;
    }
  }
  return rgba;
}

/** freezedetect's rule over a run of frames: the references that two still frames in a row followed. */
function frozenReferences(frames: Uint8Array[], noise = FREEZE_NOISE): number[] {
  const samples = frames.map((f) => sampleFrame(f, W, H));
  const found: number[] = [];
  let reference = 0, still = 0;
  for (let i = 1; i < samples.length; i++) {
    if (frameDifference(samples[i]!, samples[reference]!) <= noise) {
      still++;
      if (still === 2) found.push(reference);
    } else {
      reference = i;
      still = 0;
    }
  }
  return found;
}

describe("freezedetect's measure", () => {
  test('is 0 between a frame and itself, and black against white is the luma step alone', () => {
    const black = new Uint8Array(W * H * 4).fill(0).map((_, i) => (i % 4 === 3 ? 255 : 0));
    const white = new Uint8Array(W * H * 4).fill(255);
    expect(frameDifference(sampleFrame(black, W, H), sampleFrame(black, W, H))).toBe(0);
    // Y goes 16 → 235, U and V stay at 128: 219 over the 1.5 samples a pixel has in yuv420p.
    expect(frameDifference(sampleFrame(black, W, H), sampleFrame(white, W, H))).toBeCloseTo(219 / 1.5 / 256, 3);
  });
});

describe('the freeze guard', () => {
  test('bumps a picture that holds still so that freezedetect finds no freeze, within its reach', () => {
    const guard = new FreezeGuard(W, H);
    const bumps: Bump[] = [];
    const out = Array.from({ length: 60 }, () =>
      guard.next((bump) => {
        bumps.push(bump);
        return picture(bump);
      }),
    );
    expect(frozenReferences(Array.from({ length: 60 }, () => picture([0, 0])))).not.toEqual([]);
    expect(frozenReferences(out)).toEqual([]);
    expect(guard.bumped).toBeGreaterThan(0);
    for (const [dx, dy] of bumps) expect(hypot(dx, dy)).toBeLessThanOrEqual(FREEZE_BUMP_REACH_PX);
  });

  test("moves the face less than the gap the caption keeps around it (the caption is placed before the guard runs)", () => {
    expect(FREEZE_BUMP_REACH_PX).toBeLessThan(FACE_GAP_PX);
  });

  test('draws a picture that moves on its own once per frame, unbumped', () => {
    const guard = new FreezeGuard(W, H);
    const bumps: Bump[] = [];
    for (let i = 0; i < 30; i++) {
      guard.next((bump) => {
        bumps.push(bump);
        return picture(bump, i, 6);
      });
    }
    expect(bumps).toHaveLength(30);
    expect(bumps.every(([dx, dy]) => dx === 0 && dy === 0)).toBe(true);
    expect(guard.bumped).toBe(0);
  });

  test('eases a bump out over the next frames instead of snapping back', () => {
    const guard = new FreezeGuard(W, H);
    const kept: Bump[] = [];
    for (let i = 0; i < 12; i++) {
      let last: Bump = [0, 0];
      guard.next((bump) => {
        last = bump;
        return picture(bump);
      });
      kept.push(last);
    }
    const firstBump = kept.findIndex(([dx, dy]) => dx !== 0 || dy !== 0);
    expect(firstBump).toBeGreaterThan(0);
    const [bx, by] = kept[firstBump]!, [nx, ny] = kept[firstBump + 1]!;
    // The frame after a bump starts from three quarters of it, not from where the hand alone puts it.
    expect(hypot(nx, ny)).toBeGreaterThan(0);
    expect(hypot(nx - bx, ny - by)).toBeLessThan(hypot(bx, by));
  });
});

describe('a clip drawn through renderClipToFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'rs-freeze-guard-'));
  });
  afterAll(() => fsp.rm(dir, { recursive: true, force: true }));

  test('of a drawn person held perfectly still still has no freeze once encoded (ffmpeg freezedetect)', async () => {
    // The quiet, tinted disgusted mood (the kind of backdrop that froze), one frame drawn 45 times.
    const frame = reactionFrames({ emotion: 'disgusted', intensity: 0.9, durationS: 2, seed: 3 })[40]!;
    const frames = Array.from({ length: 45 }, () => frame);
    const scene = await prepareIllustratedScene(rigFromPrompt('woman with a bun and glasses', 3), frames, { seed: 3, width: W, height: H });
    const still: FrameRenderer = { width: scene.width, height: scene.height, drawFrame: (ctx, f) => scene.drawFrame(ctx, f, 40) };
    const held = path.join(dir, 'held.mp4');
    await renderClipToFile(still, frames, held);
    expect(await freezes(held, {})).toEqual([]);
  });
});
