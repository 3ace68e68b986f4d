/**
 * A reaction as a file: frames drawn by a renderer (illustrated or photo), streamed into the
 * canonical encoding. Writing to a local path is the whole job; putting the file in the blob store is
 * the engine's thin last step, so this part is testable without S3.
 */
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import type { ReactionFrame } from './animation';
import { encodeFrames, type CaptionOverlay, type EncodeStats, type PosterOutput } from './frame-encoder';

/**
 * What every renderer (illustrated, photo) offers: draw frame `index` over the whole output,
 * opaque. The canvas is read after each call, so a renderer keeps nothing between frames that the
 * frame itself does not say.
 */
export interface FrameRenderer {
  readonly width: number;
  readonly height: number;
  drawFrame(ctx: SKRSContext2D, frame: ReactionFrame, index: number): void;
}

export interface RenderClipOptions {
  signal?: AbortSignal;
  /** See EncodeFramesOptions.overlay. */
  overlay?: CaptionOverlay;
  /** See EncodeFramesOptions.poster. */
  poster?: PosterOutput;
  /** See EncodeFramesOptions.audioPath. */
  audioPath?: string;
  timeoutMs?: number;
}

export async function renderClipToFile(
  renderer: FrameRenderer,
  frames: readonly ReactionFrame[],
  outputPath: string,
  options: RenderClipOptions = {},
): Promise<EncodeStats> {
  const canvas = createCanvas(renderer.width, renderer.height);
  const ctx = canvas.getContext('2d');
  return encodeFrames({
    outputPath,
    frameCount: frames.length,
    width: renderer.width,
    height: renderer.height,
    signal: options.signal,
    timeoutMs: options.timeoutMs,
    overlay: options.overlay,
    poster: options.poster,
    audioPath: options.audioPath,
    frame: (index) => {
      ctx.save();
      renderer.drawFrame(ctx, frames[index]!, index);
      ctx.restore();
      // Skia draws lazily: reading the pixels is where this frame's raster work happens.
      return canvas.data();
    },
  });
}
