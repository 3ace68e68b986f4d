/**
 * How a reaction opens: already moving. Before the onset the face is calm and its idle motion is
 * value noise, which starts every channel at a lattice point, where it has no speed: the first
 * frames came out identical and the next ones crawled, so a clip opened on 0.3-0.4 s of frozen
 * picture (ffmpeg's freezedetect at n=0.003 found it in every photo, prompt and preview video), read
 * as a stall before anything happens.
 *
 * So the person is caught turning to the camera (a head turn that lands as the reaction starts) while
 * the phone settles (a slow pull back and straightening over the first second, at a steady speed so
 * the motion never stops short of the reaction's own). The sizes are what keeps the flat illustrated
 * avatar, whose frames differ only at its outlines, above freezedetect's threshold frame by frame.
 */

/** Degrees the head is turned away at the first frame (yaw, a little down), gone by the onset. */
const TURN = { headYaw: 20, headPitch: 7 } as const;
/** The camera at the first frame: this much closer and tilted, back to rest over SETTLE_S. */
const SETTLE = { zoom: 0.12, rotation: -3, offsetY: -24 } as const;
const SETTLE_S = 1;

export interface OpeningMotion {
  headYaw: number;
  headPitch: number;
  zoom: number;
  rotation: number;
  offsetY: number;
}

/** What the opening adds at `t` seconds to the face and the camera of a reaction whose onset is `onsetS`. */
export function openingMotion(t: number, onsetS: number): OpeningMotion {
  const turn = Math.max(0, 1 - t / Math.max(onsetS, 1e-3));
  const settle = Math.max(0, 1 - t / SETTLE_S);
  // `+ 0`: never -0 once the opening is over (frames are compared and stored).
  return { headYaw: TURN.headYaw * turn, headPitch: TURN.headPitch * turn, zoom: SETTLE.zoom * settle, rotation: SETTLE.rotation * settle + 0, offsetY: SETTLE.offsetY * settle + 0 };
}
