/**
 * Whether a motion reference shows a face: the check a clip gets before a job is accepted (docs/decisions.md,
 * Video jobs). Locally one process decodes the clip and looks (`referenceShowsFace`); on AWS the videos
 * function has ffmpeg but no room for the face runtime, so it samples the same frames as small JPEGs
 * (`sampleReferenceFramesJpeg`) and the face-check function looks at them (`framesShowFace`,
 * frame-faces.ts, which decodes them with sharp). Both halves sample as the local check does
 * (`REFERENCE_FACE_CHECK`) and ask the same detector the same question (detectInRgb, `minFaceSize`).
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EngineError, REACTION_CLIP } from '#ports/engine';
import { fileArg, MediaToolError, runFfmpeg } from '../ffmpeg/binaries';
import { pinnedInput } from '../ffmpeg/video-container';
import { detectInRgb } from './landmarks';
import { decodeFrames, decodeSize, probeReference } from './reference-motion';
const { ceil, max, min, round } = Math;

/**
 * How a reference is sampled for its face: two frames a second of its first REACTION_CLIP.maxS (the
 * part a reaction follows), short side 360 px, a face at least 24 px wide. Two a second, stopping at
 * the first face, keep the check near a second even for a faceless clip; the render samples more
 * densely and fails the job (nothing charged) in the rare clip whose face shows only between these.
 */
export const REFERENCE_FACE_CHECK = {
  sampleFps: 2,
  shortSide: 360,
  minFaceSize: 24,
  /** The JPEG frames' long side at most (only a clip wider than about 3.5:1 is scaled below 360 px). */
  maxLongSide: 1280,
  /** ffmpeg's MJPEG quantiser (2 best, 31 worst): about 11 KB for a 360x640 frame, plenty for a detector. */
  jpegQuality: 5,
} as const;

/** Frames the JPEG sampling makes at most: REACTION_CLIP.maxS at the check's rate. */
export const REFERENCE_FACE_CHECK_MAX_FRAMES = ceil(REACTION_CLIP.maxS * REFERENCE_FACE_CHECK.sampleFps);

/** Ends a decode early: the first face answers the question. */
const FACE_SEEN = Symbol('face seen');

/** The check's frame size and how much of the clip it reads. */
async function checkedPart(videoPath: string, shortSide: number) {
  const { demuxer, display, clipDurationS } = await probeReference(videoPath);
  const durationS = min(REACTION_CLIP.maxS, clipDurationS || REACTION_CLIP.maxS);
  return { demuxer, durationS, ...decodeSize(display, shortSide) };
}

/**
 * Whether a face shows in the part of a clip a reaction follows, decoded and looked for in this
 * process (the local stack; the tests). A clip that cannot be decoded is EngineError('invalid_input'),
 * as for the render.
 */
export async function referenceShowsFace(videoPath: string, options: { sampleFps?: number; signal?: AbortSignal } = {}): Promise<boolean> {
  const sampleFps = options.sampleFps ?? REFERENCE_FACE_CHECK.sampleFps;
  const { demuxer, width, height, durationS } = await checkedPart(videoPath, REFERENCE_FACE_CHECK.shortSide);
  try {
    await decodeFrames(videoPath, { demuxer, width, height, fps: sampleFps, durationS, signal: options.signal }, async (rgb) => {
      if (await detectInRgb(rgb, width, height, { signal: options.signal, minFaceSize: REFERENCE_FACE_CHECK.minFaceSize })) throw FACE_SEEN;
    });
  } catch (error) {
    if (error === FACE_SEEN) return true;
    throw error;
  }
  return false;
}

/** `size` scaled down (even sides) so its long side is at most `maxLongSide`. */
function withinLongSide(size: { width: number; height: number }, maxLongSide: number): { width: number; height: number } {
  const scale = min(1, maxLongSide / max(size.width, size.height));
  const even = (v: number) => max(2, 2 * round((v * scale) / 2));
  return scale < 1 ? { width: even(size.width), height: even(size.height) } : size;
}

/**
 * The frames the face check looks at, as JPEGs in clip order: those `referenceShowsFace` decodes
 * (REFERENCE_FACE_CHECK), at most `maxFrames`. ffmpeg only, no face runtime: for a function that
 * hands them to one that has it. A clip that cannot be decoded is EngineError('invalid_input');
 * ffmpeg missing is EngineError('engine_failure').
 */
export async function sampleReferenceFramesJpeg(videoPath: string, options: { sampleFps?: number; maxFrames?: number } = {}): Promise<Buffer[]> {
  const sampleFps = options.sampleFps ?? REFERENCE_FACE_CHECK.sampleFps;
  const maxFrames = options.maxFrames ?? REFERENCE_FACE_CHECK_MAX_FRAMES;
  const part = await checkedPart(videoPath, REFERENCE_FACE_CHECK.shortSide);
  const { width, height } = withinLongSide(part, REFERENCE_FACE_CHECK.maxLongSide);
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'rs-face-frames-'));
  try {
    await runFfmpeg(
      [
        '-v', 'error',
        '-t', part.durationS.toFixed(3),
        ...pinnedInput(videoPath, part.demuxer),
        '-map', '0:v:0', '-an', '-sn', '-dn',
        '-vf', `fps=${sampleFps},scale=${width}:${height}:flags=bilinear,format=yuvj420p`,
        '-frames:v', String(maxFrames),
        '-c:v', 'mjpeg', '-q:v', String(REFERENCE_FACE_CHECK.jpegQuality),
        '-f', 'image2', fileArg(path.join(dir, 'frame-%03d.jpg')),
      ],
      { timeoutMs: 60_000 },
    );
    const names = (await fsp.readdir(dir)).filter((name) => name.endsWith('.jpg')).sort();
    return await Promise.all(names.map((name) => fsp.readFile(path.join(dir, name))));
  } catch (cause) {
    if (cause instanceof MediaToolError && cause.kind === 'spawn') throw new EngineError('engine_failure', `ffmpeg is unavailable: ${cause.message}`, { cause });
    if (cause instanceof MediaToolError) throw new EngineError('invalid_input', `The reference clip could not be decoded (${cause.message})`, { cause });
    throw cause;
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
