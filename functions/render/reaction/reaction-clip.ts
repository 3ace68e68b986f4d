/**
 * A reaction as a file: frames drawn by a renderer (illustrated or photo), streamed into the
 * canonical encoding. Writing to a local path is the whole job; putting the file in the blob store is
 * the engine's thin last step, so this part is testable without S3.
 */
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import type { ReactionFrame } from './animation';
import { encodeFrames, type CaptionOverlay, type EncodeStats, type PosterOutput } from './frame-encoder';
import { FreezeGuard } from './freeze-guard';
import { REACTION_CLIP } from '#ports/engine';
const { ceil, floor, max, min } = Math;

/**
 * What every renderer (illustrated, photo) offers: draw frame `index` over the whole output,
 * opaque. The canvas is read after each call, so a renderer keeps nothing between frames that the
 * frame itself does not say. A renderer draws in the transform the context holds when it is called
 * (the hand-held camera's, ./camera.ts) and paints HANDHELD_OVERSCAN of picture past every edge, so
 * that camera never shows an edge.
 */
export interface FrameRenderer {
  readonly width: number;
  readonly height: number;
  drawFrame(ctx: SKRSContext2D, frame: ReactionFrame, index: number): void;
  /**
   * Where frame `index` shows the face's eyes-to-mouth (the renderer's own pixels, in the identity
   * transform: ./camera.ts moves it with the camera), so the caption can keep off it; null when the
   * frame has no face the renderer knows of. Absent: never known.
   */
  faceBox?(frame: ReactionFrame, index: number): FaceBox | null;
}

export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The face's eyes-to-mouth box over the whole clip (the union of every frame's) on a `width` x
 * `height` output, rounded outwards to whole pixels; null when the renderer knows of no face. The
 * caption is drawn once for the clip, so it must clear the face wherever it goes. (The freeze guard
 * may draw a frame up to FREEZE_BUMP_REACH_PX off this box: inside the gap the caption keeps.)
 */
export function clipFaceBox(renderer: FrameRenderer, frames: readonly ReactionFrame[], width: number, height: number): FaceBox | null {
  if (!renderer.faceBox) return null;
  const sx = width / renderer.width, sy = height / renderer.height;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  frames.forEach((frame, i) => {
    const box = renderer.faceBox!(frame, i);
    if (!box) return;
    x0 = min(x0, box.x * sx);
    y0 = min(y0, box.y * sy);
    x1 = max(x1, (box.x + box.width) * sx);
    y1 = max(y1, (box.y + box.height) * sy);
  });
  if (!Number.isFinite(x0)) return null;
  const x = max(0, floor(x0)), y = max(0, floor(y0));
  return { x, y, width: min(width, ceil(x1)) - x, height: min(height, ceil(y1)) - y };
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
  const guard = new FreezeGuard(renderer.width, renderer.height);
  const px = renderer.width / REACTION_CLIP.width;
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
    frame: (index) =>
      guard.next(([dx, dy]) => {
        ctx.save();
        ctx.translate(dx * px, dy * px);
        renderer.drawFrame(ctx, frames[index]!, index);
        ctx.restore();
        // Skia draws lazily: reading the pixels is where this frame's raster work happens.
        return canvas.data();
      }),
  });
}
