/**
 * Accepting or refusing a product's demo video as media. The type comes from the file's own bytes
 * (never its name or declared content type: both are the sender's word), confirmed by ffprobe; then
 * what makes it usable at all: a real video track (in a WebM, one of the web's own codecs), a known
 * length, at least 240 px a side, decodable from start to end. Its shape and length are measured
 * here and judged by the rules of intake (domain/demo-intake.ts), which know what the request asked.
 */
import { AppError } from '#domain/errors';
import { MediaToolError, runFfmpeg } from '../ffmpeg/binaries';
import { probeMedia } from '../ffmpeg/probe';
import { readFileHead } from '../ffmpeg/file-head';
import { pinnedInput, sniffVideoContainer, SNIFF_BYTES, type Demuxer, type VideoContainer } from '../ffmpeg/video-container';
const { max, min } = Math;

export interface DemoVideoInfo {
  /** Every container the sniffer knows is a demo's: MP4, MOV, AVI, WebM. */
  container: VideoContainer;
  /** Display size, after rotation metadata. */
  width: number;
  height: number;
  durationS: number;
  hasAudio: boolean;
}

const DEMO_VIDEO_RULES = {
  minSidePx: 240,
} as const;

const ACCEPTED = 'an MP4, MOV, AVI or WebM video';

/**
 * What a WebM may hold, as the WebM specification says (browsers, screen recorders and ffmpeg write
 * nothing else). A Matroska file that only calls itself WebM may hold anything: it is refused by its
 * codecs rather than handed to a decoder nobody meant for it.
 */
const WEBM_CODECS = { video: new Set(['vp8', 'vp9', 'av1']), audio: new Set(['opus', 'vorbis']) } as const;

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

/**
 * Inspects an uploaded demo video. Throws AppError 415 `unsupported_media_type` when the bytes are not
 * MP4/MOV/AVI/WebM (or a WebM holds other codecs), 422 `invalid_media` when they are but the video is
 * unusable; each message says what to fix. A broken toolchain throws a plain Error (a 500, never
 * blamed on the user).
 */
export async function inspectDemoVideo(path: string, options: { field?: string } = {}): Promise<DemoVideoInfo> {
  const field = options.field ?? 'demo_video';
  const invalid = (message: string) => new AppError('invalid_media', `${field} ${message}`);

  const sniffed = await sniffVideoContainer(await readFileHead(path, SNIFF_BYTES));
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
  if (container === 'webm') {
    const audioCodec = media.audio?.codec;
    if (!WEBM_CODECS.video.has(video.codec) || (audioCodec !== undefined && !WEBM_CODECS.audio.has(audioCodec))) {
      throw new AppError(
        'unsupported_media_type',
        `${field} is a WebM holding ${video.codec} video${audioCodec ? ` and ${audioCodec} sound` : ''}; a WebM demo must hold VP8, VP9 or AV1 video and Opus or Vorbis sound (or none)`,
      );
    }
  }
  const durationS = video.durationS ?? media.durationS;
  if (durationS === null || !(durationS > 0)) {
    throw invalid('has no usable duration (zero or unknown length); export the video again and re-upload it');
  }
  const { displayWidth: width, displayHeight: height } = video;
  if (min(width, height) < DEMO_VIDEO_RULES.minSidePx) {
    throw invalid(`must be at least ${DEMO_VIDEO_RULES.minSidePx} px on each side; got ${width}x${height}`);
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
