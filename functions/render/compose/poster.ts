/**
 * The finished video's poster: which frame, and how a canonical frame becomes the JPEG. Compose cuts
 * it from the joined video; an engine that encodes the clip itself can write it on the way (the same
 * frame, through the same filter), which saves Compose a decode in its own ffmpeg.
 */
import { CANONICAL } from '../encoding/canonical-encoding';
import type { ReactionFrame } from '../reaction/animation';
const { abs, floor } = Math;

/** 60% into the reaction segment, on a frame boundary: where a reaction whose curve is unknown (another engine's clip) usually peaks. */
export function posterTimeS(segmentDurationS: number): number {
  return floor(segmentDurationS * 0.6 * CANONICAL.fps) / CANONICAL.fps;
}

/**
 * How strongly a frame shows its reaction: the emotion's intensity where the frame carries one, else
 * (motion from a reference clip) how far the face is from rest: an open mouth, raised or knitted
 * brows, wide eyes, a smile or a frown.
 */
function expressionStrength(frame: ReactionFrame): number {
  if (frame.expression) return frame.expression.intensity;
  const { mouthOpen, smile, browRaise, eyeOpen } = frame.face;
  return mouthOpen + abs(smile) * 0.6 + abs(browRaise) * 0.6 + abs(eyeOpen - 1) * 0.5;
}

/**
 * The frame where the reaction peaks: the strongest expression, the first of equals (a held peak is
 * shown as it lands). The poster shows it, caption on: the face a thumbnail should sell.
 */
export function peakFrameIndex(frames: readonly ReactionFrame[]): number {
  let best = 0;
  for (let i = 1; i < frames.length; i++) if (expressionStrength(frames[i]!) > expressionStrength(frames[best]!) + 1e-6) best = i;
  return best;
}

/**
 * Canonical frames (BT.709, limited range) to a 1080x1920 JPEG's pixels. The frame is turned to RGB
 * with its own matrix and from there to JPEG's full-range BT.601: converting YUV to YUV directly
 * would keep the 709 values and tint the poster.
 */
export const POSTER_FILTER = `scale=in_color_matrix=bt709:in_range=tv,format=rgb24,scale=${CANONICAL.width}:${CANONICAL.height}:out_color_matrix=bt601:out_range=pc,format=yuvj420p`;

/** Encoder and muxer arguments of the poster: everything after the `-map`, before the path. */
export const POSTER_ENCODE_ARGS: readonly string[] = ['-frames:v', '1', '-an', '-c:v', 'mjpeg', '-q:v', '3', '-map_metadata', '-1', '-f', 'image2'];
