/**
 * The last line against a frozen reaction, on the drawn pixels themselves.
 *
 * The expression curve and the hand-held camera keep the picture moving by design, but how much a
 * move changes the picture depends on what is in it: over a flat, tinted backdrop (a disgusted or
 * angry mood) 3-4 px of sway changed the frame by less than ffmpeg's freezedetect noise floor, and 2
 * of about 100 probed clips froze for 0.1 s. This guard reads each frame as it is drawn, follows
 * freezedetect's own rule (FFmpeg's vf_freezedetect.c: a reference frame is kept while later frames
 * stay within the noise floor of it, and a freeze is reported once two frames in a row have), and
 * where a frame would be the second such frame it asks for it again, moved a few pixels: the hand
 * bumping the phone. The bump eases out over the next frames, so the picture never snaps back.
 *
 * The measure is freezedetect's: the mean absolute difference over the Y, U and V planes of a
 * yuv420p frame (chroma at a quarter of the samples), over 256. It is taken on a grid of every
 * GRID_STEP-th pixel of the RGBA frame, and the floor kept is MARGIN times the check's 0.003, since
 * the encoder smooths small differences in flat areas away.
 */
const { abs, ceil, hypot, max, round } = Math;

/** freezedetect's noise floor in the liveliness check (`n=0.003`). */
export const FREEZE_NOISE = 0.003;
/** The floor this guard keeps, above the check's: the encode shaves small changes off. */
const MARGIN = 1.6;
const GRID_STEP = 4;

/** Bumps tried in turn (output pixels of the 1080-wide frame), the smallest first. */
const BUMPS: ReadonlyArray<readonly [number, number]> = [
  [3, 0], [0, 3], [-3, 0], [0, -3],
  [5, 0], [0, 5], [-5, 0], [0, -5],
];
/** What is left of a bump at each following frame. */
const BUMP_EASE = 0.75;

/** A frame as freezedetect sees it, sampled: Y, U and V of every GRID_STEP-th pixel. */
export interface FrameSample {
  y: Uint8Array;
  u: Uint8Array;
  v: Uint8Array;
}

/** Samples an opaque RGBA frame of `width` × `height` with BT.601 limited-range YUV, as the encoder converts it. */
export function sampleFrame(rgba: Uint8Array, width: number, height: number): FrameSample {
  const cols = ceil(width / GRID_STEP), rows = ceil(height / GRID_STEP);
  const y = new Uint8Array(cols * rows), u = new Uint8Array(cols * rows), v = new Uint8Array(cols * rows);
  let k = 0;
  for (let row = 0; row < height; row += GRID_STEP) {
    for (let col = 0; col < width; col += GRID_STEP) {
      const i = (row * width + col) * 4;
      const r = rgba[i]!, g = rgba[i + 1]!, b = rgba[i + 2]!;
      y[k] = round(16 + 0.257 * r + 0.504 * g + 0.098 * b);
      u[k] = round(128 - 0.148 * r - 0.291 * g + 0.439 * b);
      v[k] = round(128 + 0.439 * r - 0.368 * g - 0.071 * b);
      k++;
    }
  }
  return { y, u, v };
}

/** freezedetect's measure between two samples: 0 for the same picture. */
export function frameDifference(a: FrameSample, b: FrameSample): number {
  let luma = 0, chroma = 0;
  for (let k = 0; k < a.y.length; k++) {
    luma += abs(a.y[k]! - b.y[k]!);
    chroma += abs(a.u[k]! - b.u[k]!) + abs(a.v[k]! - b.v[k]!);
  }
  // In yuv420p each chroma plane has a quarter of the luma plane's samples.
  return (luma + chroma / 4) / (a.y.length * 1.5) / 256;
}

/** A shift of the whole picture, in output pixels of the 1080-wide frame. */
export type Bump = readonly [number, number];

/**
 * Keeps freezedetect from finding a freeze in the frames as they are drawn. `draw(bump)` draws the
 * next frame moved by `bump` and returns its pixels; `next` returns the frame to encode, drawn again
 * with a bump where the first drawing would complete a freeze.
 *
 * freezedetect's reference can be any earlier frame, so the rule kept is local and stricter: no
 * frame may stay within the floor of the frame two before when the frame between did too. Then no
 * reference has two still frames after it, whatever frames freezedetect took as references.
 */
export class FreezeGuard {
  private twoBefore: FrameSample | null = null;
  private before: FrameSample | null = null;
  /** Whether the frame before stayed within the floor of the one before it. */
  private beforeWasStill = false;
  private carried: Bump = [0, 0];
  /** Frames drawn again, for the caller's stats. */
  bumped = 0;

  constructor(
    private readonly width: number,
    private readonly height: number,
    private readonly floor = FREEZE_NOISE * MARGIN,
  ) {}

  next(draw: (bump: Bump) => Uint8Array): Uint8Array {
    this.carried = [this.carried[0] * BUMP_EASE, this.carried[1] * BUMP_EASE];
    let pixels = draw(this.carried);
    let sample = sampleFrame(pixels, this.width, this.height);
    const reference = this.beforeWasStill ? this.twoBefore : null;
    if (reference && frameDifference(sample, reference) <= this.floor) {
      let best = { pixels, sample, bump: this.carried, difference: frameDifference(sample, reference) };
      let lastDrawn: Bump = this.carried;
      for (const bump of BUMPS) {
        const redrawn = draw(bump);
        lastDrawn = bump;
        const redrawnSample = sampleFrame(redrawn, this.width, this.height);
        const difference = frameDifference(redrawnSample, reference);
        if (difference > best.difference) best = { pixels: redrawn, sample: redrawnSample, bump, difference };
        if (difference > this.floor) break;
      }
      // A drawing may reuse the canvas's memory: the frame kept is the one drawn last.
      pixels = best.bump === lastDrawn ? best.pixels : draw(best.bump);
      sample = best.sample;
      this.carried = best.bump;
      this.bumped++;
    }
    this.beforeWasStill = this.before !== null && frameDifference(sample, this.before) <= this.floor;
    this.twoBefore = this.before;
    this.before = sample;
    return pixels;
  }
}

/** How far a bump moves the picture at most (output pixels): camera.ts keeps it inside the overscan. */
export const FREEZE_BUMP_REACH_PX = BUMPS.reduce((most, [dx, dy]) => max(most, hypot(dx, dy)), 0);
