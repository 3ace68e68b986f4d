/**
 * The finished video's poster: which frame, and how a canonical frame becomes the JPEG. Compose cuts
 * it from the joined video; an engine that encodes the clip itself can write it on the way (the same
 * frame, through the same filter), which saves Compose a decode in its own ffmpeg.
 */
import { CANONICAL } from '../encoding/canonical-encoding';

/** 60% into the reaction segment, on a frame boundary: the reaction at its peak, caption on. */
export function posterTimeS(segmentDurationS: number): number {
  return Math.floor(segmentDurationS * 0.6 * CANONICAL.fps) / CANONICAL.fps;
}

/** The poster's frame index in a segment of `frames` frames. */
export const posterFrameIndex = (frames: number) => Math.round(posterTimeS(frames / CANONICAL.fps) * CANONICAL.fps);

/**
 * Canonical frames (BT.709, limited range) to a 1080x1920 JPEG's pixels. The frame is turned to RGB
 * with its own matrix and from there to JPEG's full-range BT.601: converting YUV to YUV directly
 * would keep the 709 values and tint the poster.
 */
export const POSTER_FILTER = `scale=in_color_matrix=bt709:in_range=tv,format=rgb24,scale=${CANONICAL.width}:${CANONICAL.height}:out_color_matrix=bt601:out_range=pc,format=yuvj420p`;

/** Encoder and muxer arguments of the poster: everything after the `-map`, before the path. */
export const POSTER_ENCODE_ARGS: readonly string[] = ['-frames:v', '1', '-an', '-c:v', 'mjpeg', '-q:v', '3', '-map_metadata', '-1', '-f', 'image2'];
