/**
 * The frames a clip's face box is found on (face-motion.ts `findFaceBox`), and the same frames as
 * JPEGs for a function that has ffmpeg but no face runtime to hand to one that has it (the render
 * function on AWS with a hosted engine asks the face-check function; functions/handlers/face-check.ts).
 * ffmpeg only: no face runtime is imported here.
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EngineError } from '#ports/engine';
import { fileArg, MediaToolError, runFfmpeg } from '../ffmpeg/binaries';
import { probeMedia } from '../ffmpeg/probe';
import { pinnedInput } from '../ffmpeg/video-container';
import { FACE_BOX_SAMPLES, faceBoxDecodeSize } from './face-box-sampling';
const { min } = Math;

/** ffmpeg's MJPEG quantiser for the sampled frames: about 40 KB for a 540x960 frame, sharp enough for the mesh. */
const JPEG_QUALITY = 4;

export interface FaceBoxFrames {
  /** JPEGs in clip order, each `width` x `height`. */
  frames: Buffer[];
  width: number;
  height: number;
  /** The clip's own size, which a box found on the frames is scaled back to. */
  clip: { width: number; height: number };
}

/**
 * `samples` frames spread over the first `durationS` seconds of a clip (the whole clip by default),
 * at half its size, as JPEGs: what findFaceBox decodes, for a face runtime elsewhere. A clip that
 * cannot be decoded is EngineError('invalid_input'); ffmpeg missing is EngineError('engine_failure').
 */
export async function sampleFaceBoxFramesJpeg(clip: string, options: { durationS?: number; samples?: number } = {}): Promise<FaceBoxFrames> {
  const probe = await probeMedia(clip);
  if (!probe.ok) {
    if (probe.reason === 'tool_unavailable') throw new EngineError('engine_failure', `ffprobe is unavailable: ${probe.detail}`);
    throw new EngineError('invalid_input', 'The clip could not be read as a video');
  }
  const video = probe.media.video;
  if (!video?.displayWidth || !video.displayHeight) throw new EngineError('invalid_input', 'The clip has no video track');
  const durationS = video.durationS ?? probe.media.durationS ?? 0;
  const spanS = min(options.durationS ?? durationS, durationS || Infinity);
  const samples = options.samples ?? FACE_BOX_SAMPLES;
  const size = { width: video.displayWidth, height: video.displayHeight };
  const { width, height } = faceBoxDecodeSize(size);
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'rs-face-box-'));
  try {
    await runFfmpeg(
      [
        '-v', 'error',
        '-t', spanS.toFixed(3),
        ...pinnedInput(clip, probe.demuxer),
        '-map', '0:v:0', '-an', '-sn', '-dn',
        '-vf', `fps=${samples / spanS},scale=${width}:${height}:flags=bilinear,format=yuvj420p`,
        '-frames:v', String(samples),
        '-c:v', 'mjpeg', '-q:v', String(JPEG_QUALITY),
        '-f', 'image2', fileArg(path.join(dir, 'frame-%03d.jpg')),
      ],
      { timeoutMs: 60_000 },
    );
    const names = (await fsp.readdir(dir)).filter((name) => name.endsWith('.jpg')).sort();
    return { frames: await Promise.all(names.map((name) => fsp.readFile(path.join(dir, name)))), width, height, clip: size };
  } catch (cause) {
    if (cause instanceof MediaToolError && cause.kind === 'spawn') throw new EngineError('engine_failure', `ffmpeg is unavailable: ${cause.message}`, { cause });
    if (cause instanceof MediaToolError) throw new EngineError('invalid_input', `The clip could not be decoded (${cause.message})`, { cause });
    throw cause;
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
