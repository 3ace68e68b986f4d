/**
 * How a clip is sampled for its face box, shared by the half that decodes (ffmpeg: face-motion.ts,
 * face-box-frames.ts) and the half that detects (frame-faces.ts, in the face-check function). No
 * imports: neither half bundles the other's tools through it.
 */
const { max, round } = Math;

/** Frames spread over the clip: a sway or a turn of the head a few frames long still falls inside the union. */
export const FACE_BOX_SAMPLES = 8;
/** The detector's smallest face on the half-size frames: far below a face that fills a third of a phone screen. */
export const FACE_BOX_MIN_FACE = 24;

/** Half the clip's size, even sides: where detection runs. */
export function faceBoxDecodeSize(clip: { width: number; height: number }): { width: number; height: number } {
  const even = (v: number) => max(2, 2 * round(v / 2));
  return { width: even(clip.width / 2), height: even(clip.height / 2) };
}
