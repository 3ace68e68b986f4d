/**
 * Accepting or refusing a product's demo video. The type comes from the file's own bytes (never its
 * name or declared content type: both are the sender's word), confirmed by ffprobe; then the
 * usability rules: a real video track, decodable from start to end, at most 180 s, at least 240 px a
 * side, portrait.
 */
import { AppError } from '#domain/errors';
import { MediaToolError, runFfmpeg } from '../ffmpeg/binaries';
import { probeMedia } from '../ffmpeg/probe';
import { readFileHead } from '../ffmpeg/file-head';
import { CONTAINER_LABELS, pinnedInput, sniffVideoContainer, SNIFF_BYTES, type Demuxer, type VideoContainer } from '../ffmpeg/video-container';
const { max, min, round } = Math;

type DemoContainer = 'mp4' | 'mov' | 'avi';

export interface DemoVideoInfo {
  container: DemoContainer;
  /** Display size, after rotation metadata. */
  width: number;
  height: number;
  durationS: number;
  hasAudio: boolean;
}

export const DEMO_VIDEO_RULES = {
  maxDurationS: 180,
  /** Players and editors round a 3:00 recording to 180.0x s; a fraction over is still "3 minutes". */
  durationGraceS: 0.5,
  minSidePx: 240,
} as const;

const ACCEPTED = 'an MP4, MOV or AVI video';
/** The README's demo formats; WebM is a reference-only container. */
const DEMO_CONTAINERS: ReadonlySet<VideoContainer> = new Set(['mp4', 'mov', 'avi']);

export type SniffResult = { container: DemoContainer; demuxer: Demuxer } | { refused: string };

/** The demo-video verdict on a file's first bytes (video-container.ts, narrowed to MP4/MOV/AVI). */
export async function sniffDemoContainer(head: Buffer): Promise<SniffResult> {
  const sniffed = await sniffVideoContainer(head);
  if ('refused' in sniffed) return sniffed;
  if (!DEMO_CONTAINERS.has(sniffed.container)) return { refused: CONTAINER_LABELS[sniffed.container] };
  return { container: sniffed.container as DemoContainer, demuxer: sniffed.demuxer };
}

/** How many video frames ffmpeg decodes from `startS`; 0 when the data is missing or broken. */
async function decodedFrames(path: string, demuxer: Demuxer, streamIndex: number, startS: number): Promise<number> {
  try {
    const { stdout } = await runFfmpeg(
      ['-v', 'error', '-ss', startS.toFixed(3), ...pinnedInput(path, demuxer), '-map', `0:${streamIndex}`, '-frames:v', '1', '-f', 'framecrc', '-'],
      { timeoutMs: 30_000 },
    );
    return stdout.split('\n').filter((line) => line && !line.startsWith('#')).length;
  } catch (error) {
    if (error instanceof MediaToolError && error.kind !== 'spawn') return 0;
    throw error;
  }
}

const fmtS = (s: number) => `${round(s * 10) / 10} s`;

/**
 * Inspects an uploaded demo video. Throws AppError 415 `unsupported_media_type` when the bytes are not
 * MP4/MOV/AVI, 422 `invalid_media` when they are but the video is unusable; each message says what to
 * fix. A broken toolchain throws a plain Error (a 500, never blamed on the user).
 */
export async function inspectDemoVideo(path: string, options: { field?: string } = {}): Promise<DemoVideoInfo> {
  const field = options.field ?? 'demo_video';
  const invalid = (message: string) => new AppError('invalid_media', `${field} ${message}`);

  const sniffed = await sniffDemoContainer(await readFileHead(path, SNIFF_BYTES));
  if ('refused' in sniffed) {
    throw new AppError('unsupported_media_type', `${field} must be ${ACCEPTED}; got ${sniffed.refused}`);
  }
  const { container, demuxer } = sniffed;
  const label = container.toUpperCase();

  const probed = await probeMedia(path, { format: demuxer });
  if (!probed.ok) {
    if (probed.reason === 'tool_unavailable') throw new Error(`cannot inspect ${field}: ${probed.detail}`);
    throw invalid(`looks like ${label} but cannot be read (truncated or damaged?); export the video again and re-upload it`);
  }
  const media = probed.media;

  const video = media.video;
  if (!video) {
    throw invalid(`has no video stream${media.audio ? ' (it is audio only)' : ''}; upload a video with picture`);
  }
  const durationS = video.durationS ?? media.durationS;
  if (durationS === null || !(durationS > 0)) {
    throw invalid('has no usable duration (zero or unknown length); export the video again and re-upload it');
  }
  const longestS = max(durationS, media.durationS ?? 0);
  if (longestS > DEMO_VIDEO_RULES.maxDurationS + DEMO_VIDEO_RULES.durationGraceS) {
    throw invalid(`must be at most ${DEMO_VIDEO_RULES.maxDurationS} s long; got ${fmtS(longestS)}. Trim it and re-upload`);
  }
  const { displayWidth: width, displayHeight: height } = video;
  if (min(width, height) < DEMO_VIDEO_RULES.minSidePx) {
    throw invalid(`must be at least ${DEMO_VIDEO_RULES.minSidePx} px on each side; got ${width}x${height}`);
  }
  if (!(height > width)) {
    throw invalid(`must be vertical (portrait, taller than wide); got ${width}x${height}`);
  }

  // Metadata can be intact while the picture data is not (a cut-off upload with its index up front):
  // decode the first frame and one near the end.
  const relativeStartS = max(0, (video.startS ?? 0) - (media.startS ?? 0));
  const [first, last] = await Promise.all([
    decodedFrames(path, demuxer, video.index, 0),
    decodedFrames(path, demuxer, video.index, max(0, relativeStartS + durationS - 1)),
  ]);
  if (first === 0 || last === 0) {
    throw invalid(
      `cannot be decoded ${first === 0 ? 'from its start' : 'to its end'} (truncated, damaged or an unsupported codec: ${video.codec}); export the video again and re-upload it`,
    );
  }

  return { container, width, height, durationS, hasAudio: media.audio !== null };
}
