/**
 * Accepting or refusing a product's demo video. The type comes from the file's own bytes (never its
 * name or declared content type, DESIGN §2), confirmed by ffprobe; then the usability rules: a real
 * video track, decodable from start to end, at most 180 s, at least 240 px a side, portrait.
 */
import { open } from 'node:fs/promises';
import { AppError } from '../domain/errors';
import { fileArg, MediaToolError, runFfmpeg } from './binaries';
import { probeMedia, type MediaProbe } from './probe';
import { readFileHead } from './file-head';

export type DemoContainer = 'mp4' | 'mov' | 'avi';

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

/** ISO-BMFF major brands of plain MP4 files (phones, editors, screen recorders, ffmpeg). */
const MP4_BRANDS = new Set([
  'isom', 'iso2', 'iso3', 'iso4', 'iso5', 'iso6', 'iso7', 'iso8', 'iso9',
  'mp41', 'mp42', 'mp71', 'avc1', 'M4V ', 'M4VH', 'M4VP', 'M4A ', 'MSNV', 'XAVC', 'dash', 'f4v ', 'mmp4',
]);

/** Top-level atoms a QuickTime file may start with when it predates the `ftyp` box. */
const LEGACY_QUICKTIME_ATOMS = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

export type SniffResult = { container: DemoContainer } | { refused: string };

const ascii = (bytes: Buffer, start: number, end: number) => bytes.subarray(start, end).toString('latin1');

/** Names the format of a file's first bytes; pure, for the first 64 bytes or so. */
export function sniffContainer(head: Buffer): SniffResult {
  if (head.length === 0) return { refused: 'an empty file' };
  if (head.length >= 12 && ascii(head, 4, 8) === 'ftyp') {
    const brand = ascii(head, 8, 12);
    if (brand === 'qt  ') return { container: 'mov' };
    if (MP4_BRANDS.has(brand)) return { container: 'mp4' };
    if (brand.startsWith('3g')) return { refused: 'a 3GP video' };
    if (['heic', 'heix', 'mif1', 'msf1', 'avif'].includes(brand)) return { refused: 'a HEIF/AVIF image' };
    return { refused: `an ISO media file of brand "${brand.trim()}"` };
  }
  if (head.length >= 12 && ascii(head, 0, 4) === 'RIFF') {
    const form = ascii(head, 8, 12);
    if (form === 'AVI ') return { container: 'avi' };
    if (form === 'WAVE') return { refused: 'a WAV audio file' };
    if (form === 'WEBP') return { refused: 'a WebP image' };
    return { refused: 'a RIFF file that is not AVI' };
  }
  if (head.length >= 8 && LEGACY_QUICKTIME_ATOMS.has(ascii(head, 4, 8)) && head.readUInt32BE(0) >= 8) {
    return { container: 'mov' };
  }
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return { refused: 'a PNG image' };
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return { refused: 'a JPEG image' };
  if (ascii(head, 0, 4) === 'GIF8') return { refused: 'a GIF image' };
  if (head.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]))) return { refused: 'a WebM/Matroska video' };
  if (ascii(head, 0, 3) === 'ID3' || (head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0)) return { refused: 'MP3 audio' };
  if (ascii(head, 0, 4) === 'OggS') return { refused: 'an Ogg file' };
  if (ascii(head, 0, 4) === 'fLaC') return { refused: 'FLAC audio' };
  if (head[0] === 0x47 && head.length > 188 && head[188] === 0x47) return { refused: 'an MPEG-TS stream' };
  if (ascii(head, 0, 5) === '%PDF-') return { refused: 'a PDF document' };
  return { refused: 'a file of unrecognised type' };
}


function probeAgrees(container: DemoContainer, media: MediaProbe): boolean {
  return container === 'avi' ? media.formatNames.includes('avi') : media.formatNames.includes('mov') || media.formatNames.includes('mp4');
}

/** How many video frames ffmpeg decodes from `startS`; 0 when the data is missing or broken. */
async function decodedFrames(path: string, streamIndex: number, startS: number): Promise<number> {
  try {
    const { stdout } = await runFfmpeg(
      ['-v', 'error', '-ss', startS.toFixed(3), '-i', fileArg(path), '-map', `0:${streamIndex}`, '-frames:v', '1', '-f', 'framecrc', '-'],
      { timeoutMs: 30_000 },
    );
    return stdout.split('\n').filter((line) => line && !line.startsWith('#')).length;
  } catch (error) {
    if (error instanceof MediaToolError && error.kind !== 'spawn') return 0;
    throw error;
  }
}

const fmtS = (s: number) => `${Math.round(s * 10) / 10} s`;

/**
 * Inspects an uploaded demo video. Throws AppError 415 `unsupported_media_type` when the bytes are not
 * MP4/MOV/AVI, 422 `invalid_media` when they are but the video is unusable; each message says what to
 * fix. A broken toolchain throws a plain Error (a 500, never blamed on the user).
 */
export async function inspectDemoVideo(path: string, options: { field?: string } = {}): Promise<DemoVideoInfo> {
  const field = options.field ?? 'demo_video';
  const invalid = (message: string) => new AppError('invalid_media', `${field} ${message}`);

  const sniffed = sniffContainer(await readFileHead(path));
  if ('refused' in sniffed) {
    throw new AppError('unsupported_media_type', `${field} must be ${ACCEPTED}; got ${sniffed.refused}`);
  }
  const { container } = sniffed;
  const label = container.toUpperCase();

  const probed = await probeMedia(path);
  if (!probed.ok) {
    if (probed.reason === 'tool_unavailable') throw new Error(`cannot inspect ${field}: ${probed.detail}`);
    throw invalid(`looks like ${label} but cannot be read (truncated or damaged?); export the video again and re-upload it`);
  }
  const media = probed.media;
  if (!probeAgrees(container, media)) {
    throw new AppError('unsupported_media_type', `${field} must be ${ACCEPTED}; its contents are ${media.formatNames[0] ?? 'unknown'}`);
  }

  const video = media.video;
  if (!video) {
    throw invalid(`has no video stream${media.audio ? ' (it is audio only)' : ''}; upload a video with picture`);
  }
  const durationS = video.durationS ?? media.durationS;
  if (durationS === null || !(durationS > 0)) {
    throw invalid('has no usable duration (zero or unknown length); export the video again and re-upload it');
  }
  const longestS = Math.max(durationS, media.durationS ?? 0);
  if (longestS > DEMO_VIDEO_RULES.maxDurationS + DEMO_VIDEO_RULES.durationGraceS) {
    throw invalid(`must be at most ${DEMO_VIDEO_RULES.maxDurationS} s long; got ${fmtS(longestS)}. Trim it and re-upload`);
  }
  const { displayWidth: width, displayHeight: height } = video;
  if (Math.min(width, height) < DEMO_VIDEO_RULES.minSidePx) {
    throw invalid(`must be at least ${DEMO_VIDEO_RULES.minSidePx} px on each side; got ${width}x${height}`);
  }
  if (!(height > width)) {
    throw invalid(`must be vertical (portrait, taller than wide); got ${width}x${height}`);
  }

  // Metadata can be intact while the picture data is not (a cut-off upload with its index up front):
  // decode the first frame and one near the end.
  const relativeStartS = Math.max(0, (video.startS ?? 0) - (media.startS ?? 0));
  const [first, last] = await Promise.all([
    decodedFrames(path, video.index, 0),
    decodedFrames(path, video.index, Math.max(0, relativeStartS + durationS - 1)),
  ]);
  if (first === 0 || last === 0) {
    throw invalid(
      `cannot be decoded ${first === 0 ? 'from its start' : 'to its end'} (truncated, damaged or an unsupported codec: ${video.codec}); export the video again and re-upload it`,
    );
  }

  return { container, width, height, durationS, hasAudio: media.audio !== null };
}
