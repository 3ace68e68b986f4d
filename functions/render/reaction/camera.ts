/**
 * The hand-held phone every offline reaction is filmed with: the whole picture (backdrop, person,
 * accents) sways by about a hundredth of its width, breathes in and out by about a percent and rolls
 * by a fraction of a degree, on smooth noise seeded by the job, so same seed, same frames.
 *
 * Why: the renderers' own camera moves the person, and a drawn backdrop or a photo's surroundings stood
 * perfectly still behind it. Real UGC is shot hand-held, and a frame whose edges never move reads as
 * a still with a sticker on it (ffmpeg's whole-frame freezedetect found 4-27 freezes of 0.1 s in a
 * 4 s illustrated reaction). The amplitudes are kept to what reads as a hand holding a phone, not an
 * effect.
 *
 * It is one layer over any FrameRenderer (`handHeld`): the renderer draws in the transform it is
 * handed, with HANDHELD_OVERSCAN of picture past every edge, and reports its face box before the
 * move; this module moves both.
 */
import { REACTION_CLIP } from '#ports/engine';
import type { FaceBox, FrameRenderer } from './reaction-clip';
import { transformedBox, type Affine } from './affine';
import { FREEZE_BUMP_REACH_PX } from './freeze-guard';
import { hashSeed, smoothNoise } from './seeded-random';
const { cos, hypot, PI, sin } = Math;

/** The camera in one frame: offsets in pixels of the 1080-wide output, zoom about the frame's centre, roll in degrees. */
export interface HandheldPose {
  offsetX: number;
  offsetY: number;
  zoom: number;
  roll: number;
}

/**
 * The hand's sway: the frame circles its rest point (a hand never holds still, and a circle, unlike a
 * back-and-forth, never stops to turn), its radius and pace wandering so it never reads as a loop.
 * The speed is the point: ffmpeg's freezedetect (n = 0.003 over 0.1 s) wants about 1.2 luma levels
 * of whole-frame change every two frames, and a flat-colour scene changes only 0.3-0.5 level per
 * pixel it moves, so a drift of a few pixels (under 20 px/s) still froze wherever the person paused.
 * ±10 px once a second (~60 px/s; under 1 % of the width, about half a millimetre on a phone) left
 * 10 freezes of 0.1 s in 15 drawn reactions (five emotions, three seeds) that had 191 without it,
 * 8 of them crying; ±8 px at 0.9 turns a second left 63. With the drawn backdrop's out-of-focus
 * lights, ±10 px at 1.1 turns leaves 2 (and 7 in 25 more seeds), mostly an energetic emotion's own
 * camera shake moving against the sway for a tenth of a second; with that shake tempered where it
 * would (expression-curve.ts, neverHeldStill), 0 (and 2 in the 25, both crying). A wider circle (±11 px:
 * 1 and 3) widens the face box the caption keeps clear of, so the top hook over a drawn face dropped a
 * size; a quicker one (1.35 turns) jumps more than 6 px every two frames.
 */
const SWAY = { radiusPx: 10, radiusWander: 0.15, turnsPerS: 1.1, paceWander: 0.8 } as const;
/** A slower wander under the sway, so its centre moves too. */
const DRIFT_PX = 3;
/** Zoom breathing (between 1 and 1 + this: never below 1, so it never needs overscan) and roll, at most. */
const ZOOM = 0.012;
const ROLL_DEG = 0.35;

/** How far the camera goes: offset on either axis (1080-wide output pixels), zoom range, roll either way (degrees). */
export const HANDHELD_LIMITS = {
  offsetPx: SWAY.radiusPx * (1 + SWAY.radiusWander) + DRIFT_PX,
  zoom: [1, 1 + ZOOM],
  rollDeg: ROLL_DEG,
} as const;

/**
 * Picture a renderer paints past every edge, as a share of the frame's long side: more than
 * `handheldReach` (camera.test.ts checks it, and that no corner of a frame ever leaves it).
 */
export const HANDHELD_OVERSCAN = 0.015;

export function handheldPose(seed: number, t: number): HandheldPose {
  const s = hashSeed(seed, 'handheld');
  // The pace's wander turns the phase by at most paceWander·π/2 radians a second (noise at rate 0.5),
  // well under the sway's own 2π: the circle slows and hurries but never stops or turns back.
  const phase = 2 * PI * SWAY.turnsPerS * t + SWAY.paceWander * smoothNoise(s + 1, t * 0.5) + (s % 628) / 100;
  const radius = SWAY.radiusPx * (1 + SWAY.radiusWander * smoothNoise(s + 2, t * 0.4));
  const turn = s % 2 === 0 ? 1 : -1;
  return {
    offsetX: radius * cos(phase) + DRIFT_PX * smoothNoise(s + 3, t * 0.3),
    offsetY: turn * radius * sin(phase) + DRIFT_PX * smoothNoise(s + 4, t * 0.27),
    zoom: 1 + (ZOOM * (1 + smoothNoise(s + 5, t * 0.4))) / 2,
    roll: ROLL_DEG * smoothNoise(s + 6, t * 0.33),
  };
}

/** The pose as a canvas transform on a `width` x `height` picture: about its centre, offsets scaled from the 1080-wide output. */
export function handheldMatrix(pose: HandheldPose, width: number, height: number): Affine {
  const px = width / REACTION_CLIP.width;
  const theta = (pose.roll * PI) / 180;
  const c = cos(theta) * pose.zoom, s = sin(theta) * pose.zoom;
  const cx = width / 2, cy = height / 2;
  // out = T(centre + offset) · R · S · T(−centre) · p
  return [c, s, -s, c, cx + pose.offsetX * px - (c * cx - s * cy), cy + pose.offsetY * px - (s * cx + c * cy)];
}

/** How far past an edge the camera can bring into view, in pixels of a `width` x `height` picture: the offset, and the roll at a corner. */
export function handheldReach(width: number, height: number): number {
  // The freeze guard's bump moves the picture a few pixels more, on top of the hand.
  const offset = (HANDHELD_LIMITS.offsetPx + FREEZE_BUMP_REACH_PX) * (width / REACTION_CLIP.width);
  return offset + ((HANDHELD_LIMITS.rollDeg * PI) / 180) * hypot(width / 2, height / 2);
}

/**
 * `renderer` filmed hand-held: each frame drawn in the camera's transform, each face box moved with
 * it (the caption keeps off the face where it is on screen). Frame `index` is at index / fps.
 */
export function handHeld(renderer: FrameRenderer, seed: number, fps: number = REACTION_CLIP.fps): FrameRenderer {
  const at = (index: number) => handheldMatrix(handheldPose(seed, index / fps), renderer.width, renderer.height);
  const faceBox = renderer.faceBox?.bind(renderer);
  return {
    width: renderer.width,
    height: renderer.height,
    drawFrame(ctx, frame, index) {
      // Composed with what the context holds: the freeze guard's bump (./freeze-guard.ts) goes outside it.
      ctx.transform(...at(index));
      renderer.drawFrame(ctx, frame, index);
    },
    ...(faceBox
      ? {
          faceBox(frame, index): FaceBox | null {
            const box = faceBox(frame, index);
            return box ? transformedBox(at(index), box) : null;
          },
        }
      : {}),
  };
}
