/**
 * How alive a rendered reaction looks, measured on the encoded clip the way a viewer sees it (issue 27):
 * the face region's mean frame-to-frame change per window of time, the stretches where the picture
 * freezes, and the seams a composited background leaves (a luma step across a whole row or column).
 *
 * The face region is where human finds a face: a box drawn by the renderer would measure what the
 * renderer believes, not what is on screen. The box is the union of the faces found over the clip, so
 * a head that sways stays inside it, and change is read on the luma plane at the clip's own size.
 */
import { EngineError } from '#ports/engine';
import { fileArg, runFfmpeg } from '../ffmpeg/binaries';
import { probeMedia } from '../ffmpeg/probe';
import { detectInRgb } from './landmarks';
import { decodeFrames } from './reference-motion';
import type { FaceBox } from '../reaction/reaction-clip';
import { extentToBox, meshExtent, unionExtent, type Extent, type FaceRegion } from './face-box';
import { FACE_BOX_MIN_FACE, FACE_BOX_SAMPLES, faceBoxDecodeSize } from './face-box-sampling';
const { abs, floor, max, min, round } = Math;

export type { FaceBox, FaceRegion };

export interface FaceMotion {
  fps: number;
  /** Frames read (of the measured span). */
  frames: number;
  /** The face region measured, in the clip's pixels. */
  box: FaceBox;
  /** Mean absolute luma difference (0-255) inside the box, between frame i and i + 1. */
  diffs: number[];
  /** The mean of `diffs` per window (`windowS`), in order; a last window shorter than half is dropped. */
  windows: number[];
  /** The quietest window: what "alive for its whole length" is judged by. */
  minWindow: number;
  /** The mean over the whole span. */
  mean: number;
}

export interface FaceMotionOptions {
  /** Measure inside this box (clip pixels) instead of finding the face. */
  box?: FaceBox;
  /** Measure only the first `durationS` seconds (a finished video: the reaction before the demo). */
  durationS?: number;
  /** Default 1 s. */
  windowS?: number;
  /**
   * Resample the face box to this width (aspect kept) before comparing frames. Change per pixel
   * depends on how many pixels the face spans; two clips whose faces differ in size (a 540×960
   * reference, a 1080×1920 reaction) compare fairly only at one face size. Default: the clip's own.
   */
  faceWidth?: number;
  signal?: AbortSignal;
}

interface ClipShape {
  width: number;
  height: number;
  fps: number;
  durationS: number;
  demuxer: Parameters<typeof decodeFrames>[1]['demuxer'];
}

async function clipShape(clip: string): Promise<ClipShape> {
  const probe = await probeMedia(clip);
  if (!probe.ok) throw new EngineError('invalid_input', `${clip} could not be read as a video`);
  const video = probe.media.video;
  if (!video?.displayWidth || !video.displayHeight) throw new EngineError('invalid_input', `${clip} has no video track`);
  return {
    width: video.displayWidth,
    height: video.displayHeight,
    fps: video.fps && video.fps > 0 ? video.fps : 30,
    durationS: video.durationS ?? probe.media.durationS ?? 0,
    demuxer: probe.demuxer,
  };
}

/**
 * The union of the face boxes human finds in `samples` frames spread over the first `durationS`
 * seconds, in the clip's pixels; null when no frame shows a face. Detection runs on a half-size
 * decode (a face that fills a third of a phone screen is far above the detector's minimum).
 */
export async function findFaceBox(clip: string, options: { durationS?: number; samples?: number; region?: FaceRegion; signal?: AbortSignal } = {}): Promise<FaceBox | null> {
  const shape = await clipShape(clip);
  const spanS = min(options.durationS ?? shape.durationS, shape.durationS || Infinity);
  const samples = options.samples ?? FACE_BOX_SAMPLES;
  const { width, height } = faceBoxDecodeSize(shape);
  let extent: Extent | null = null;
  await decodeFrames(clip, { demuxer: shape.demuxer, width, height, fps: samples / spanS, durationS: spanS, signal: options.signal }, async (rgb) => {
    const face = await detectInRgb(rgb, width, height, { signal: options.signal, minFaceSize: FACE_BOX_MIN_FACE });
    if (face) extent = unionExtent(extent, meshExtent(face.mesh, options.region));
  });
  return extent ? extentToBox(extent, shape.width / width, shape) : null;
}

/** Mean absolute difference of two equal-length luma buffers. */
function meanAbsDiff(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += abs(a[i]! - b[i]!);
  return a.length ? sum / a.length : 0;
}

/**
 * The face region's motion over a clip: per consecutive pair of frames the mean absolute luma
 * difference inside the face box, and its mean per window. Throws EngineError('invalid_input') when
 * no face is found and no box was given.
 */
export async function measureFaceMotion(clip: string, options: FaceMotionOptions = {}): Promise<FaceMotion> {
  const shape = await clipShape(clip);
  const durationS = min(options.durationS ?? shape.durationS, shape.durationS || Infinity);
  // A face turned away or under a caption in most samples: look again, closer together.
  const box = options.box ?? (await findFaceBox(clip, { durationS, signal: options.signal })) ?? (await findFaceBox(clip, { durationS, samples: 30, signal: options.signal }));
  if (!box) throw new EngineError('invalid_input', `no face found in ${clip}`);
  const diffs: number[] = [];
  let previous: Uint8Array | null = null;
  const even = (v: number) => max(2, 2 * round(v / 2));
  const size = options.faceWidth ? { width: even(options.faceWidth), height: even((options.faceWidth * box.height) / box.width) } : { width: box.width, height: box.height };
  const decode = { demuxer: shape.demuxer, ...size, durationS, crop: box, gray: true, signal: options.signal };
  await decodeFrames(clip, decode, (luma) => {
    if (previous) diffs.push(meanAbsDiff(previous, luma));
    previous = luma;
  });
  const windows = windowMeans(diffs, shape.fps, options.windowS ?? 1);
  const mean = diffs.length ? diffs.reduce((s, d) => s + d, 0) / diffs.length : 0;
  return { fps: shape.fps, frames: diffs.length + 1, box, diffs, windows, minWindow: windows.length ? min(...windows) : 0, mean };
}

/**
 * The mean of per-pair differences in windows of `windowS`: the pair (i, i + 1) belongs to the window
 * its later frame falls in, so the first window holds the change into its first second.
 */
function windowMeans(diffs: readonly number[], fps: number, windowS: number): number[] {
  const perWindow = max(1, round(fps * windowS));
  const out: number[] = [];
  for (let start = 0; start < diffs.length; start += perWindow) {
    const part = diffs.slice(start, start + perWindow);
    if (part.length < perWindow / 2) break;
    out.push(part.reduce((s, d) => s + d, 0) / part.length);
  }
  return out;
}

/** A stretch where ffmpeg's freezedetect sees no change above its noise floor. */
export interface Freeze {
  startS: number;
  endS: number;
}

/**
 * The frozen stretches of a clip (ffmpeg `freezedetect=n=<noise>:d=<minS>`, whole picture). Defaults
 * are issue 27's: n = 0.003, d = 0.1 s.
 */
export async function freezes(clip: string, options: { noise?: number; minS?: number; durationS?: number } = {}): Promise<Freeze[]> {
  const limit = options.durationS !== undefined ? ['-t', options.durationS.toFixed(3)] : [];
  const { stderrTail } = await runFfmpeg(['-v', 'info', '-nostats', ...limit, '-i', fileArg(clip), '-map', '0:v:0', '-vf', `freezedetect=n=${options.noise ?? 0.003}:d=${options.minS ?? 0.1}`, '-f', 'null', '-'], { timeoutMs: 120_000 });
  const out: Freeze[] = [];
  let start: number | null = null;
  for (const line of stderrTail.split('\n')) {
    const s = /freeze_start: ([0-9.]+)/.exec(line);
    if (s) start = Number(s[1]);
    const e = /freeze_end: ([0-9.]+)/.exec(line);
    if (e && start !== null) {
      out.push({ startS: start, endS: Number(e[1]) });
      start = null;
    }
  }
  if (start !== null) out.push({ startS: start, endS: options.durationS ?? Infinity });
  return out;
}

export interface SeamStep {
  /** The largest mean luma step between neighbouring rows, away from the subject: issue 27's figure. */
  step: number;
  /** Between rows `row` and `row + 1`. */
  row: number;
  /**
   * The same across columns, reported beside it: a photo's own vertical edges (a door frame, the
   * border of a screenshot) show here as well as a side extension's seam would, so it is not judged.
   */
  columnStep: number;
  column: number;
  /** The median row step: what the picture does where nothing is wrong. */
  typical: number;
}

/**
 * Seams in a luma picture: for each pair of neighbouring rows (and columns), the mean absolute luma
 * difference along them. A pasted edge runs the whole width and steps on every pixel of it; a real
 * edge in a picture (a shoulder, a shelf) is short or soft, so averaged along the row it stays small.
 * Rows and columns that cross `subject` (the face and what hangs below it) are left out: there the
 * picture is meant to change.
 */
export function seamStep(luma: Uint8Array, width: number, height: number, subject: FaceBox | null = null, options: { columns?: ReadonlyArray<readonly [number, number]> } = {}): SeamStep {
  const inside = (v: number, from: number, to: number) => v >= from && v < to;
  // Rows are averaged over these column ranges (all by default): a finished video's caption sits in
  // the middle of the frame, and its text's edges are not a seam; a seam crosses the whole width.
  const spans = options.columns ?? [[0, width] as const];
  const spanWidth = spans.reduce((n, [a, b]) => n + max(0, min(width, b) - max(0, a)), 0) || width;
  let row = { step: 0, at: 0 };
  let column = { step: 0, at: 0 };
  const rows: number[] = [];
  for (let y = 0; y + 1 < height; y++) {
    if (subject && inside(y, subject.y, subject.y + subject.height)) continue;
    let sum = 0;
    for (const [a, b] of spans) for (let x = max(0, a), o = y * width + x; x < min(width, b); x++, o++) sum += abs(luma[o]! - luma[o + width]!);
    const step = sum / spanWidth;
    rows.push(step);
    if (step > row.step) row = { step, at: y };
  }
  for (let x = 0; x + 1 < width; x++) {
    if (subject && inside(x, subject.x, subject.x + subject.width)) continue;
    let sum = 0;
    for (let y = 0, o = x; y < height; y++, o += width) sum += abs(luma[o]! - luma[o + 1]!);
    const step = sum / height;
    if (step > column.step) column = { step, at: x };
  }
  rows.sort((a, b) => a - b);
  return { step: row.step, row: row.at, columnStep: column.step, column: column.at, typical: rows.length ? rows[floor(rows.length / 2)]! : 0 };
}

/** One frame of a clip (at `atS`) as luma at the clip's size. */
export async function lumaFrameAt(clip: string, atS: number): Promise<{ luma: Uint8Array; width: number; height: number }> {
  const shape = await clipShape(clip);
  let luma: Uint8Array | null = null;
  // Every frame up to `atS` is decoded and the last kept: exact to the frame, and a reaction is short.
  await decodeFrames(clip, { demuxer: shape.demuxer, width: shape.width, height: shape.height, durationS: atS + 0.5 / shape.fps, gray: true }, (frame) => {
    luma = frame;
  });
  if (!luma) throw new EngineError('invalid_input', `${clip} has no frame at ${atS} s`);
  return { luma, width: shape.width, height: shape.height };
}

/**
 * The subject a seam must stay away from, from the face box: the face and the hair above it. Not the
 * neck and shoulders: a photo pasted over its blurred copy meets it a little under the chin, and that
 * row is exactly what this looks for.
 */
export function subjectOf(face: FaceBox, height: number): FaceBox {
  const y = max(0, round(face.y - face.height * 0.35));
  return { x: face.x, y, width: face.width, height: min(height, round(face.y + face.height)) - y };
}
