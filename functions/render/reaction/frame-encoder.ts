/**
 * Streams rendered frames into ffmpeg and gets back an MP4 in the canonical encoding:
 * raw RGBA on ffmpeg's stdin, a silent stereo AAC track from lavfi (or a sound file, e.g. a spoken line),
 * exactly `frameCount` frames.
 *
 * Rendering and encoding overlap: the next frame is drawn while ffmpeg converts and x264 encodes the
 * previous ones (x264 runs its own threads). Backpressure keeps at most a few frames queued in the
 * pipe, so memory stays flat whatever the clip's length. The Skia pixel buffers are released by
 * finalizers that only run when the event loop turns, so the loop yields after every frame.
 */
import { spawn } from 'node:child_process';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { EngineError } from '#ports/engine';
import { ffmpegPath, fileArg } from '../ffmpeg/binaries';
import type { CaptionBox } from '../caption/caption';
import { captionOverlayChains } from '../caption/caption-overlay';
import { POSTER_ENCODE_ARGS, POSTER_FILTER } from '../compose/poster';
import {
  CANONICAL,
  canonicalEncodeArgs,
  canonicalLength,
  canonicalSilence,
  fitToCanonicalFrame,
  toCanonicalAudio,
} from '../encoding/canonical-encoding';

export interface EncodeFramesOptions {
  outputPath: string;
  frameCount: number;
  /** Size of the frames handed in (the canonical size; anything else is scaled to it). */
  width?: number;
  height?: number;
  /** Returns frame `index` as width × height × 4 bytes of RGBA (opaque, so premultiplied is the same). */
  frame: (index: number) => Uint8Array;
  signal?: AbortSignal;
  /** The burnt-in caption: a full-frame RGBA PNG laid over every frame after scaling, and where it draws. */
  overlay?: CaptionOverlay;
  /** Also write frame `frame` (after the caption) as the finished video's poster JPEG at `path`. */
  poster?: PosterOutput;
  /** The clip's sound (any file ffmpeg reads, placed from 0; cut or padded to the clip); silence without. */
  audioPath?: string;
  /** ffmpeg is killed past this (default 2 minutes: a 5 s clip takes seconds). */
  timeoutMs?: number;
}

export interface EncodeStats {
  frames: number;
  /** Wall time of the whole encode, ms. */
  totalMs: number;
  /** Time spent producing frames (drawing and reading pixels back), ms. */
  renderMs: number;
  /** Time spent waiting for ffmpeg to take frames (the encoder was the bottleneck), ms. */
  waitMs: number;
}

export interface CaptionOverlay {
  path: string;
  box: CaptionBox;
}

export interface PosterOutput {
  path: string;
  frame: number;
}

/** Frames allowed to wait in the pipe before drawing pauses: enough to keep x264 busy, little memory. */
const QUEUED_FRAMES = 3;
const STDERR_TAIL_BYTES = 8 * 1024;

/** The ffmpeg arguments (exported so tests and the benchmark can show what runs). */
function encodeArgs(
  outputPath: string,
  frameCount: number,
  width: number,
  height: number,
  overlay?: CaptionOverlay,
  poster?: PosterOutput,
  audioPath?: string,
): string[] {
  const length = canonicalLength(frameCount);
  const out = poster ? '[vall]' : '[v]';
  // The overlay goes on after scaling, at full size, so text stays sharp on frames drawn smaller.
  const video = overlay && overlay.box.width > 0
    ? [`[0:v]${fitToCanonicalFrame()}[base]`, ...captionOverlayChains('[1:v]', overlay.box, `${length.video}${out}`)].join(';')
    : `[0:v]${fitToCanonicalFrame()},${length.video}${out}`;
  const graph = [
    video,
    // The poster branch keeps one frame and drops the rest, so it holds nothing back.
    ...(poster ? [`[vall]split[v][pv]`, `[pv]select=eq(n\\,${poster.frame}),${POSTER_FILTER}[p]`] : []),
    `${audioPath ? `[${overlay && overlay.box.width > 0 ? 2 : 1}:a]` : `${canonicalSilence()},`}${toCanonicalAudio()},${length.audio}[a]`,
  ].join(';');
  return [
    '-hide_banner',
    '-nostdin',
    '-v', 'error',
    '-f', 'rawvideo',
    '-pix_fmt', 'rgba',
    '-s', `${width}x${height}`,
    '-framerate', String(CANONICAL.fps),
    '-i', 'pipe:0',
    ...(overlay && overlay.box.width > 0 ? ['-i', fileArg(overlay.path)] : []),
    ...(audioPath ? ['-i', fileArg(audioPath)] : []),
    '-filter_complex', graph,
    '-map', '[v]',
    '-map', '[a]',
    ...canonicalEncodeArgs({ speed: 'rendered' }),
    '-y', fileArg(outputPath),
    ...(poster ? ['-map', '[p]', ...POSTER_ENCODE_ARGS, '-y', fileArg(poster.path)] : []),
  ];
}

export function encodeFrames(options: EncodeFramesOptions): Promise<EncodeStats> {
  const width = options.width ?? CANONICAL.width;
  const height = options.height ?? CANONICAL.height;
  const frameBytes = width * height * 4;
  const started = performance.now();
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(cancelled());

  let binary: string;
  try {
    binary = ffmpegPath();
  } catch (cause) {
    return Promise.reject(new EngineError('engine_failure', 'video encoding is not available on this server (ffmpeg is missing)', { retryable: false, cause }));
  }

  return new Promise<EncodeStats>((resolve, reject) => {
    const child = spawn(binary, encodeArgs(options.outputPath, options.frameCount, width, height, options.overlay, options.poster, options.audioPath), { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = Buffer.alloc(0);
    let failure: EngineError | null = null;
    let exited = false;
    let renderMs = 0;
    let waitMs = 0;

    const fail = (error: EngineError) => {
      failure ??= error;
      if (!exited) child.kill('SIGKILL');
    };
    const onAbort = () => fail(cancelled());
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(
      () => fail(new EngineError('engine_failure', 'rendering the reaction took too long and was stopped; try again', { retryable: true })),
      options.timeoutMs ?? 120_000,
    );

    child.stderr.on('data', (chunk: Buffer) => {
      stderr = Buffer.concat([stderr, chunk]);
      if (stderr.length > STDERR_TAIL_BYTES) stderr = stderr.subarray(stderr.length - STDERR_TAIL_BYTES);
    });
    // EPIPE when ffmpeg dies mid-stream: its exit (below) says why.
    child.stdin.on('error', () => undefined);
    child.on('error', (cause) =>
      fail(new EngineError('engine_failure', 'video encoding could not start on this server', { retryable: false, cause })),
    );

    const closed = new Promise<number | null>((done) => {
      child.on('close', (code) => {
        exited = true;
        done(code);
      });
    });

    const feed = async () => {
      for (let i = 0; i < options.frameCount; i++) {
        if (failure || exited) return;
        const t0 = performance.now();
        const pixels = options.frame(i);
        renderMs += performance.now() - t0;
        if (pixels.byteLength !== frameBytes) {
          fail(new EngineError('engine_failure', `frame ${i} has ${pixels.byteLength} bytes, expected ${frameBytes}`));
          return;
        }
        child.stdin.write(pixels);
        const t1 = performance.now();
        if (child.stdin.writableLength > QUEUED_FRAMES * frameBytes) {
          await new Promise<void>((go) => {
            const done = () => {
              child.stdin.off('drain', done);
              child.off('close', done);
              go();
            };
            child.stdin.on('drain', done);
            child.once('close', done);
          });
        } else {
          await nextTurn();
        }
        waitMs += performance.now() - t1;
      }
      child.stdin.end();
    };

    feed()
      .catch((cause) => fail(cause instanceof EngineError ? cause : new EngineError('engine_failure', 'drawing a reaction frame failed', { cause })))
      .then(() => {
        if (failure && !exited) child.stdin.destroy();
        return closed;
      })
      .then((code) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (failure) return reject(failure);
        if (code !== 0) {
          const tail = stderr.toString('utf8').trim().split('\n').slice(-3).join(' | ');
          return reject(
            new EngineError('engine_failure', 'encoding the reaction video failed; try again', {
              retryable: true,
              cause: new Error(`ffmpeg exited with ${code}: ${tail}`),
            }),
          );
        }
        resolve({ frames: options.frameCount, totalMs: performance.now() - started, renderMs, waitMs });
      });
  });
}

function cancelled(): EngineError {
  return new EngineError('cancelled', 'the reaction was cancelled before it finished rendering', { retryable: false });
}
