/**
 * Motion transfer input (docs/engines.md): a reference clip's face, measured frame by frame, becomes the
 * ReactionFrames that drive any avatar rig, so the avatar moves with the reference's timing.
 *
 * The clip is decoded once by ffmpeg at low resolution (short side 360 px) and sampled at 6 fps
 * (the poses are smoothed and interpolated to the output rate anyway, and each sample is a face
 * detection: the analysis's whole cost); frames stream out of ffmpeg while earlier ones are being
 * analysed. Each sample gets landmarks (human), reduced to expression measures relative to the clip's own
 * neutral (its first moments, or a low percentile where that is what "rest" means), smoothed, and
 * resampled to the output frame rate. The clip's length sets the reaction's length, clamped to the
 * reaction clip's 3-5 s: longer clips are cut, shorter ones hold their last pose.
 */
import { spawn } from 'node:child_process';
import { EngineError, REACTION_CLIP } from '#ports/engine';
import { ffmpegPath } from '../ffmpeg/binaries';
import { probeMedia } from '../ffmpeg/probe';
import { pinnedInput, type Demuxer } from '../ffmpeg/video-container';
import { NEUTRAL_FACE, REST_CAMERA, type ReactionFrame } from '../reaction/animation';
import { detectInRgb, measureFace, type FaceMeasures } from './landmarks';
const { ceil, floor, max, min, round } = Math;

export interface ReferenceMotionOptions {
  /** Output frame rate. Default REACTION_CLIP.fps (30). */
  fps?: number;
  /** At most this many frames (cuts the reaction shorter than the clip allows). */
  maxFrames?: number;
  signal?: AbortSignal;
  /** Samples analysed per second of clip. Default 6. */
  sampleFps?: number;
  /** Short side of the analysed frames, pixels. Default 360. */
  shortSide?: number;
}

export interface ReferenceMotionResult {
  frames: ReactionFrame[];
  /** Samples analysed, and how many had a face. */
  samples: number;
  samplesWithFace: number;
  /** Length of the reference clip, seconds (before clamping). */
  clipDurationS: number;
}

/** Samples per second: enough for a reaction's timing (a blink still shows, smoothed), at 40% less analysis than 10. */
export const DEFAULT_SAMPLE_FPS = 6;

const NO_FACE_MESSAGE = 'No face found in the reference clip; use a clip where one person faces the camera';

function cancelled(): EngineError {
  return new EngineError('cancelled', 'The reaction was cancelled');
}

/**
 * The frames for a reaction that follows the reference clip's face. Throws
 * EngineError('invalid_input') for a clip that is not a readable video or that shows no face,
 * EngineError('cancelled') when the signal aborts.
 */
export async function framesFromReference(videoPath: string, options: ReferenceMotionOptions = {}): Promise<ReactionFrame[]> {
  return (await analyseReference(videoPath, options)).frames;
}

/** framesFromReference with the analysis facts (for logs and tests). */
export async function analyseReference(videoPath: string, options: ReferenceMotionOptions = {}): Promise<ReferenceMotionResult> {
  const fps = options.fps ?? REACTION_CLIP.fps;
  const sampleFps = options.sampleFps ?? DEFAULT_SAMPLE_FPS;
  const shortSide = options.shortSide ?? 360;
  const signal = options.signal;
  if (signal?.aborted) throw cancelled();

  const { demuxer, display, clipDurationS } = await probeReference(videoPath);
  // The reaction's length: the clip's, within the clip rules; maxFrames may cut it further.
  let lengthS = min(REACTION_CLIP.maxS, max(REACTION_CLIP.minS, clipDurationS || REACTION_CLIP.minS));
  let frameCount = round(lengthS * fps);
  if (options.maxFrames !== undefined) frameCount = max(1, min(frameCount, floor(options.maxFrames)));
  lengthS = frameCount / fps;
  const analyseS = min(lengthS, clipDurationS > 0 ? clipDurationS : lengthS);

  const { width, height } = decodeSize(display, shortSide);

  const measures: (FaceMeasures | null)[] = [];
  await decodeFrames(videoPath, { demuxer, width, height, fps: sampleFps, durationS: analyseS + 0.5 / sampleFps, signal }, async (rgb) => {
    if (signal?.aborted) throw cancelled();
    const face = await detectInRgb(rgb, width, height, { signal, minFaceSize: 24 });
    measures.push(face ? measureFace(face.mesh) : null);
  });
  if (signal?.aborted) throw cancelled();
  if (measures.length === 0) throw new EngineError('invalid_input', 'The reference clip has no readable video frames');
  const withFace = measures.filter((m) => m !== null).length;
  if (withFace === 0) throw new EngineError('invalid_input', NO_FACE_MESSAGE);

  const frames = motionToFrames(measures, { sampleFps, fps, frameCount });
  return { frames, samples: measures.length, samplesWithFace: withFace, clipDurationS };
}

/** The clip's demuxer, picture size as displayed and length; a clip that is no video is invalid_input. */
export async function probeReference(videoPath: string): Promise<{ demuxer: Demuxer; display: { displayWidth: number; displayHeight: number }; clipDurationS: number }> {
  const probe = await probeMedia(videoPath);
  if (!probe.ok) {
    if (probe.reason === 'tool_unavailable') throw new EngineError('engine_failure', `ffprobe is unavailable: ${probe.detail}`);
    throw new EngineError('invalid_input', 'The reference clip could not be read as a video');
  }
  const video = probe.media.video;
  if (!video || !video.displayWidth || !video.displayHeight) {
    throw new EngineError('invalid_input', 'The reference clip has no video track');
  }
  return {
    demuxer: probe.demuxer,
    display: { displayWidth: video.displayWidth, displayHeight: video.displayHeight },
    clipDurationS: video.durationS ?? probe.media.durationS ?? 0,
  };
}

/** Decode size: the short side at `shortSide`, even dimensions, aspect kept (display orientation). */
export function decodeSize(video: { displayWidth: number; displayHeight: number }, shortSide: number): { width: number; height: number } {
  const portrait = video.displayHeight >= video.displayWidth;
  const scale = shortSide / min(video.displayWidth, video.displayHeight);
  const even = (v: number) => max(2, 2 * round(v / 2));
  return { width: portrait ? even(shortSide) : even(video.displayWidth * scale), height: portrait ? even(video.displayHeight * scale) : even(shortSide) };
}

export interface DecodeOptions {
  /** The demuxer ffprobe read the clip with: a reference is untrusted, ffmpeg must not guess. */
  demuxer: Demuxer;
  /** The size frames come out at (after `crop`). */
  width: number;
  height: number;
  /** Frames per second sampled; every frame when absent. */
  fps?: number;
  durationS: number;
  signal?: AbortSignal;
  /** A rectangle of the picture (display pixels) to keep, before scaling. */
  crop?: { x: number; y: number; width: number; height: number };
  /** One byte of luma per pixel instead of RGB. */
  gray?: boolean;
}

/**
 * Streams raw frames (RGB, or luma) out of ffmpeg and hands them to `onFrame` one at a time (ffmpeg is paused
 * while a frame is analysed, so memory stays at a frame or two).
 */
export async function decodeFrames(file: string, options: DecodeOptions, onFrame: (pixels: Uint8Array) => Promise<void> | void): Promise<void> {
  const pixFmt = options.gray ? 'gray' : 'rgb24';
  const frameBytes = options.width * options.height * (options.gray ? 1 : 3);
  const { crop } = options;
  const filters = [
    ...(crop ? [`crop=${crop.width}:${crop.height}:${crop.x}:${crop.y}`] : []),
    ...(options.fps !== undefined ? [`fps=${options.fps}`] : []),
    `scale=${options.width}:${options.height}:flags=bilinear`,
    `format=${pixFmt}`,
  ];
  const args = [
    '-hide_banner', '-nostdin', '-v', 'error',
    '-t', options.durationS.toFixed(3),
    ...pinnedInput(file, options.demuxer),
    '-map', '0:v:0',
    '-an', '-sn', '-dn',
    '-vf', filters.join(','),
    '-f', 'rawvideo', '-pix_fmt', pixFmt,
    'pipe:1',
  ];
  let binary: string;
  try {
    binary = ffmpegPath();
  } catch (cause) {
    throw new EngineError('engine_failure', `ffmpeg is unavailable: ${(cause as Error).message}`, { cause });
  }
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const onAbort = () => child.kill('SIGKILL');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const exited = new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.on('error', (error) => resolve({ code: null, error }));
    child.on('close', (code) => resolve({ code }));
  });

  // Chunks are copied straight into the frame they belong to: each frame is handed over whole and
  // owned by its reader, with no growing buffer of pending chunks copied again on every arrival.
  let frame = new Uint8Array(frameBytes);
  let filled = 0;
  let failure: unknown = null;
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      for (let at = 0; at < chunk.length; ) {
        const take = min(frameBytes - filled, chunk.length - at);
        frame.set(chunk.subarray(at, at + take), filled);
        filled += take;
        at += take;
        if (filled === frameBytes) {
          const full = frame;
          frame = new Uint8Array(frameBytes);
          filled = 0;
          await onFrame(full);
        }
      }
    }
  } catch (error) {
    failure = error;
    child.kill('SIGKILL');
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
  const { code, error } = await exited;
  if (failure) throw failure;
  if (options.signal?.aborted) throw cancelled();
  if (error) throw new EngineError('engine_failure', `ffmpeg could not be started: ${error.message}`, { cause: error });
  if (code !== 0) {
    const reason = stderr.trim().split('\n').pop() ?? '';
    throw new EngineError('invalid_input', `The reference clip could not be decoded${reason ? ` (${reason})` : ''}`);
  }
}

/** Output pixels per inter-ocular distance of the reference: a face framed like a selfie (photo-renderer's SELFIE_FACE_WIDTH). */
const MOTION_IOD_PX = 280;
/** How far a reference may move the camera; the photo renderer's margin covers it. */
export const MOTION_CAMERA = { zoom: [0.95, 1.35], offset: 110, rotation: 4 } as const;
/**
 * The share of the head's tilt the camera takes: a face warp tilts the face about the neck only, so
 * on its own a tilt moves the face less than the reference's; the camera turning with it makes up the
 * rest (and reads as the phone following the head).
 */
const ROLL_TO_CAMERA = 0.6;

type Channel = 'mouthOpen' | 'smile' | 'brow' | 'eyeOpen' | 'yaw' | 'pitch' | 'roll' | 'x' | 'y' | 'scale';
const STEADY: ReadonlySet<Channel> = new Set(['x', 'y', 'scale', 'roll']);
const CHANNELS: Channel[] = ['mouthOpen', 'smile', 'brow', 'eyeOpen', 'yaw', 'pitch', 'roll', 'x', 'y', 'scale'];

const clamp = (v: number, lo: number, hi: number) => max(lo, min(hi, v));

/** Nearest-rank percentile, rounding down (a few samples never pull a low percentile up). */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  return sorted[floor(clamp(p, 0, 1) * (sorted.length - 1))]!;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  const mid = (sorted.length - 1) / 2;
  return (sorted[floor(mid)]! + sorted[ceil(mid)]!) / 2;
}

/** Fills gaps (no face) by linear interpolation; ends hold the nearest known value. */
export function fillGaps(values: (number | null)[]): number[] {
  const out = new Array<number>(values.length);
  let last = -1;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    if (last === -1) for (let k = 0; k < i; k++) out[k] = v;
    else for (let k = last + 1; k < i; k++) out[k] = values[last]! + ((v - values[last]!) * (k - last)) / (i - last);
    out[i] = v;
    last = i;
  }
  if (last === -1) return values.map(() => 0);
  for (let k = last + 1; k < values.length; k++) out[k] = values[last]!;
  return out;
}

/** A light centred smoothing ([1, 2, 1] / 4): removes landmark jitter, keeps most of a blink. */
export function smooth(values: number[], passes = 2): number[] {
  let cur = values;
  for (let p = 0; p < passes; p++) {
    const next = new Array<number>(cur.length);
    for (let i = 0; i < cur.length; i++) {
      const a = cur[max(0, i - 1)]!, b = cur[i]!, c = cur[min(cur.length - 1, i + 1)]!;
      next[i] = (a + 2 * b + c) / 4;
    }
    cur = next;
  }
  return cur;
}

/** One pass of [1, 4, 1] / 6: takes the jitter's edge off and keeps ~90 % of a 0.8 Hz sway at 6 samples a second. */
function smoothLightly(values: number[]): number[] {
  return values.map((b, i) => (values[max(0, i - 1)]! + 4 * b + values[min(values.length - 1, i + 1)]!) / 6);
}

/**
 * Turns per-sample measures (null where no face was found) into output frames: relative to the
 * clip's neutral, smoothed, resampled to `fps`, held past the clip's end. Exported for tests.
 */
export function motionToFrames(
  measures: (FaceMeasures | null)[],
  options: { sampleFps: number; fps: number; frameCount: number },
): ReactionFrame[] {
  const valid = measures.filter((m): m is FaceMeasures => m !== null);
  if (valid.length === 0) {
    return Array.from({ length: options.frameCount }, () => ({ face: { ...NEUTRAL_FACE }, camera: { ...REST_CAMERA } }));
  }
  const raw: Record<Channel, (number | null)[]> = {} as never;
  for (const ch of CHANNELS) raw[ch] = [];
  for (const m of measures) {
    raw.mouthOpen.push(m ? m.mouthOpen : null);
    raw.smile.push(m ? m.smile : null);
    raw.brow.push(m ? m.brow : null);
    raw.eyeOpen.push(m ? m.eyeOpen : null);
    raw.yaw.push(m ? m.headPose.yaw : null);
    raw.pitch.push(m ? m.headPose.pitch : null);
    raw.roll.push(m ? m.headPose.roll : null);
    raw.x.push(m ? m.center[0] : null);
    raw.y.push(m ? m.center[1] : null);
    raw.scale.push(m ? m.iod : null);
  }
  const series = {} as Record<Channel, number[]>;
  // Expressions are smoothed against landmark jitter; where the head is (its centre, size and tilt,
  // averaged over hundreds of points) is steadier, and the full smoothing at 6 samples a second would
  // take a sixth off a sway and more off a bob, so it gets a light one.
  for (const ch of CHANNELS) series[ch] = STEADY.has(ch) ? smoothLightly(fillGaps(raw[ch])) : smooth(fillGaps(raw[ch]), 1);

  // The clip's neutral: its first moments (a reaction starts at rest), except where a low or high
  // percentile is what rest means (a closed mouth, open eyes between blinks).
  const head = valid.slice(0, max(3, ceil(valid.length * 0.2)));
  const first = (pick: (m: FaceMeasures) => number) => median(head.map(pick));
  const all = (pick: (m: FaceMeasures) => number) => valid.map(pick);
  const neutral = {
    mouthOpen: min(first((m) => m.mouthOpen), percentile(all((m) => m.mouthOpen), 0.1)),
    smile: first((m) => m.smile),
    brow: min(first((m) => m.brow), percentile(all((m) => m.brow), 0.5)),
    eyeOpen: max(1e-3, percentile(all((m) => m.eyeOpen), 0.6)),
    yaw: first((m) => m.headPose.yaw),
    pitch: first((m) => m.headPose.pitch),
    roll: first((m) => m.headPose.roll),
    x: first((m) => m.center[0]),
    y: first((m) => m.center[1]),
    scale: max(1e-3, first((m) => m.iod)),
  };

  const samples = measures.length;
  const at = (values: number[], t: number) => {
    const pos = clamp(t * options.sampleFps, 0, samples - 1);
    const i = floor(pos), f = pos - i;
    const a = values[i]!, b = values[min(samples - 1, i + 1)]!;
    return a + (b - a) * f;
  };

  const frames: ReactionFrame[] = [];
  for (let j = 0; j < options.frameCount; j++) {
    const t = j / options.fps;
    const s = neutral.scale;
    // Ratios calibrated on faces: a wide-open mouth is ~0.5 of its width, a full brow raise ~0.08
    // inter-ocular distances, a big smile lifts the corners ~0.08 mouth widths and widens the mouth.
    const mouthOpen = clamp((at(series.mouthOpen, t) - neutral.mouthOpen) / 0.45, 0, 1.2);
    const browRaise = clamp((at(series.brow, t) - neutral.brow) / 0.08, -1, 1);
    const eyeOpen = clamp(at(series.eyeOpen, t) / neutral.eyeOpen, 0, 1.5);
    const smile = clamp((at(series.smile, t) - neutral.smile) / 0.1, -1, 1);
    const headYaw = clamp(at(series.yaw, t) - neutral.yaw, -25, 25);
    const headPitch = clamp(at(series.pitch, t) - neutral.pitch, -20, 20);
    const roll = clamp(at(series.roll, t) - neutral.roll, -20, 20);
    const cameraRoll = clamp(roll * ROLL_TO_CAMERA, -MOTION_CAMERA.rotation, MOTION_CAMERA.rotation);
    const headRoll = roll - cameraRoll;
    // The head's own travel becomes the camera's, at the avatar's scale: the reference's offsets are
    // in its inter-ocular distances, drawn here as MOTION_IOD_PX each (a selfie-framed face), and its
    // lean (the face growing as it comes closer) is the zoom, whole. At a third of this, as before,
    // the avatar followed a third of the reference's movement (issue 27).
    const lean = at(series.scale, t) / s - 1;
    const dx = (at(series.x, t) - neutral.x) / s;
    const dy = (at(series.y, t) - neutral.y) / s;
    frames.push({
      face: { mouthOpen, smile, browRaise, eyeOpen, headYaw, headPitch, headRoll },
      camera: {
        zoom: clamp(1 + lean, MOTION_CAMERA.zoom[0], MOTION_CAMERA.zoom[1]),
        offsetX: clamp(dx * MOTION_IOD_PX, -MOTION_CAMERA.offset, MOTION_CAMERA.offset),
        offsetY: clamp(dy * MOTION_IOD_PX, -MOTION_CAMERA.offset, MOTION_CAMERA.offset),
        rotation: cameraRoll,
      },
    });
  }
  return frames;
}
