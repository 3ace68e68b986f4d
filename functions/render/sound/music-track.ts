/**
 * An account's own music track, from the file it uploaded to the file the render mixes: judged by its
 * bytes (never its name or declared type), read by ffprobe and ffmpeg with the demuxer the bytes named
 * pinned and only local files allowed, then transcoded to MUSIC_ENCODING (AAC 48 kHz stereo at
 * 128 kbit/s in an .m4a, no metadata) and levelled two-pass (loudness.ts): measured, then one gain
 * and, only where the gain would push peaks over −1.5 dBTP, the oversampled limiter.
 *
 * Refusals are AppErrors a client can act on: 415 `unsupported_media_type` when the bytes are not one
 * of the accepted formats, 422 `invalid_media` when they are but the audio is unusable (unreadable,
 * truncated, no sound stream, a video, silent, too long). A broken or missing toolchain is a plain
 * Error: a 500, never blamed on the file.
 */
import { stat } from 'node:fs/promises';
import { fileTypeFromBuffer } from 'file-type';
import { AppError } from '#domain/errors';
import { MUSIC_ENCODING, MUSIC_LIMITS } from '#domain/music';
import { fileArg, MediaToolError, runFfmpeg, runFfprobe } from '../ffmpeg/binaries';
import { readFileHead } from '../ffmpeg/file-head';
import { parseProbeOutput, type MediaProbe } from '../ffmpeg/probe';
import { levelChain, measureGraph } from './loudness';
const { floor, max, round } = Math;

/** The accepted formats, by what their bytes say, with the only ffmpeg demuxer each is read with. */
const AUDIO_FORMATS = {
  mp3: { label: 'MP3', demuxer: 'mp3' },
  m4a: { label: 'M4A', demuxer: 'mov' },
  aac: { label: 'AAC', demuxer: 'aac' },
  wav: { label: 'WAV', demuxer: 'wav' },
  ogg: { label: 'Ogg', demuxer: 'ogg' },
  flac: { label: 'FLAC', demuxer: 'flac' },
} as const;

type AudioFormat = keyof typeof AUDIO_FORMATS;

const ACCEPTED = 'MP3, M4A/AAC, WAV, OGG/Opus or FLAC audio';

/** Codecs the accepted containers carry music in; anything else in them (a speech codec, DRM) is refused. */
const ACCEPTED_CODECS = new Set(['mp3', 'mp2', 'aac', 'alac', 'vorbis', 'opus', 'flac']);
const isAcceptedCodec = (codec: string) => ACCEPTED_CODECS.has(codec) || codec.startsWith('pcm_');

/** ISO-BMFF brands of audio files (iTunes, phones, ffmpeg) and of plain MP4s, which may hold audio only. */
const AUDIO_ISO_BRANDS = new Set(['M4A ', 'M4B ', 'isom', 'iso2', 'iso4', 'iso5', 'iso6', 'mp41', 'mp42', 'dash', 'mmp4']);

/** Enough for file-type's signatures (an MP3's ID3 tag may be longer: its size is then read from the tag's header). */
const HEAD_BYTES = 4100;

/** What a refused file looks like, so the user learns why. */
const LOOKS_LIKE: Record<string, string> = {
  png: 'a PNG image',
  apng: 'a PNG image',
  jpg: 'a JPEG image',
  gif: 'a GIF image',
  webp: 'a WebP image',
  heic: 'a HEIF image',
  avif: 'an AVIF image',
  mkv: 'a Matroska video',
  webm: 'a WebM video',
  avi: 'an AVI video',
  mov: 'a QuickTime video',
  m4v: 'an M4V video',
  m4p: 'protected (DRM) iTunes audio',
  ogv: 'an Ogg video',
  ogm: 'an Ogg video',
  spx: 'Speex audio',
  mid: 'a MIDI file (notes, not sound)',
  aif: 'AIFF audio',
  wma: 'WMA audio',
  asf: 'a Windows Media file',
  amr: 'AMR audio',
  pdf: 'a PDF document',
  zip: 'a ZIP archive',
};

type AudioSniff = { format: AudioFormat } | { refused: string };

const ascii = (bytes: Buffer, start: number, end: number) => bytes.subarray(start, end).toString('latin1');

function describeText(head: Buffer): string | undefined {
  const text = head.toString('utf8').replace(/^\ufeff/, '').trimStart().slice(0, 64).toLowerCase();
  if (text.startsWith('<!doctype html') || text.startsWith('<html')) return 'a web page';
  if (text.startsWith('<')) return 'an HTML or XML document';
  if (text.startsWith('{') || text.startsWith('[')) return 'a JSON document';
  if (text.startsWith('#extm3u')) return 'a playlist (the list, not the audio)';
  return undefined;
}

/** The audio format of a file's first bytes, or what it looks like instead. */
async function sniffAudio(head: Buffer): Promise<AudioSniff> {
  if (head.length === 0) return { refused: 'an empty file' };
  // Hand-written because file-type names the ISO family by a few brands only.
  if (head.length >= 12 && ascii(head, 4, 8) === 'ftyp') {
    const brand = ascii(head, 8, 12);
    if (AUDIO_ISO_BRANDS.has(brand)) return { format: 'm4a' };
    if (brand === 'M4P ') return { refused: LOOKS_LIKE.m4p! };
    if (brand === 'qt  ') return { refused: LOOKS_LIKE.mov! };
    return { refused: `an ISO media file of brand "${brand.trim()}"` };
  }
  const type = await fileTypeFromBuffer(head);
  switch (type?.ext) {
    case 'mp3':
      return { format: 'mp3' };
    case 'aac':
      return { format: 'aac' };
    case 'wav':
      return { format: 'wav' };
    case 'ogg':
    case 'opus':
    case 'oga':
      return { format: 'ogg' };
    case 'flac':
      return { format: 'flac' };
    default:
      if (!type) return { refused: describeText(head) ?? 'a file of unrecognised type' };
      return { refused: LOOKS_LIKE[type.ext] ?? `a .${type.ext} file (${type.mime})` };
  }
}

/** The ffprobe input of an untrusted file: its demuxer pinned, local files only. */
const pinnedAudioInput = (path: string, format: AudioFormat) => ['-f', AUDIO_FORMATS[format].demuxer, '-protocol_whitelist', 'file', '-i', fileArg(path)];

/** ffmpeg's: the same, read no further than a second past the longest track allowed. */
const pinnedDecodeInput = (path: string, format: AudioFormat) => ['-t', String(MUSIC_LIMITS.maxDurationS + 1), ...pinnedAudioInput(path, format)];

/**
 * The budgets of each step, together inside an API function's 29 s. On one vCPU a 10-minute MP3 takes
 * about 1 s to decode, 3 s to measure (the true peak is read 4× oversampled) and 6 s to encode, 5 s
 * more when the limiter runs: about 15 s at worst.
 */
const TIMEOUTS_MS = { probe: 5_000, measure: 8_000, encode: 14_000 } as const;

/** Decoding that loses more than this much of what the file declares means it was cut short. */
const TRUNCATION_TOLERANCE = { seconds: 1, fraction: 0.03 } as const;

const fmtDuration = (s: number) => `${floor(s / 60)}:${String(floor(s % 60)).padStart(2, '0')}`;

export interface MusicTrackFile {
  format: AudioFormat;
  /** Of the file written (what plays). */
  durationS: number;
  sizeBytes: number;
}

/** Probes with the format's demuxer pinned; a file ffprobe cannot read is the user's, a tool that does not run is ours. */
async function probeAudio(path: string, format: AudioFormat, field: string): Promise<MediaProbe> {
  const label = AUDIO_FORMATS[format].label;
  try {
    const { stdout } = await runFfprobe(['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...pinnedAudioInput(path, format)], {
      timeoutMs: TIMEOUTS_MS.probe,
    });
    return parseProbeOutput(JSON.parse(stdout));
  } catch (error) {
    if (error instanceof MediaToolError && error.kind === 'spawn') throw new Error(`cannot inspect ${field}: ${error.message}`, { cause: error });
    if (error instanceof MediaToolError || error instanceof SyntaxError) {
      throw new AppError('invalid_media', `${field} looks like ${label} but cannot be read (truncated or damaged?); export it again and re-upload it`);
    }
    throw error;
  }
}

function judgeProbe(media: MediaProbe, format: AudioFormat, field: string): number {
  const label = AUDIO_FORMATS[format].label;
  const invalid = (message: string) => new AppError('invalid_media', `${field} ${message}`);
  if (!media.audio) throw invalid(media.video ? 'is a video without sound; upload an audio file' : `looks like ${label} but has no audio stream`);
  if (media.video) throw invalid('is a video; upload the audio only (MP3, M4A, WAV, OGG or FLAC)');
  if (!isAcceptedCodec(media.audio.codec)) throw invalid(`holds ${media.audio.codec} audio, which is not taken; export it as ${ACCEPTED}`);
  const durationS = media.audio.durationS ?? media.durationS ?? 0;
  if (!(durationS > 0)) throw invalid('has no usable duration; export it again');
  if (durationS > MUSIC_LIMITS.maxDurationS + MUSIC_LIMITS.durationGraceS) {
    throw invalid(`is ${fmtDuration(durationS)} long; the most allowed is ${MUSIC_LIMITS.maxDurationS / 60} minutes. Trim it and re-upload`);
  }
  return durationS;
}

/** Our own output, read back: its duration as written. */
async function writtenDuration(path: string): Promise<number> {
  const { stdout } = await runFfprobe(['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '-f', 'mov', '-protocol_whitelist', 'file', '-i', fileArg(path)], {
    timeoutMs: TIMEOUTS_MS.probe,
  });
  const media = parseProbeOutput(JSON.parse(stdout));
  return media.audio?.durationS ?? media.durationS ?? 0;
}

/** Runs one ffmpeg step over the untrusted file: it failing on the file is a 422, a timeout too (a hostile or broken file). */
async function onTheFile<T>(field: string, label: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof MediaToolError && error.kind === 'timeout') {
      throw new AppError('invalid_media', `${field} took too long to decode; export it again (MP3 or WAV) and re-upload it`, { cause: error });
    }
    if (error instanceof MediaToolError && error.kind === 'exit') {
      throw new AppError('invalid_media', `${field} looks like ${label} but cannot be decoded (truncated or damaged?); export it again and re-upload it`, { cause: error });
    }
    throw error;
  }
}

/**
 * Judges `inputPath` and writes its levelled .m4a to `outputPath`. Nothing is written elsewhere; the
 * caller removes `outputPath` whatever happens.
 */
export async function ingestMusicTrack(inputPath: string, outputPath: string, options: { field?: string } = {}): Promise<MusicTrackFile> {
  const field = options.field ?? 'audio';
  const sniffed = await sniffAudio(await readFileHead(inputPath, HEAD_BYTES));
  if ('refused' in sniffed) throw new AppError('unsupported_media_type', `${field} must be ${ACCEPTED}; got ${sniffed.refused}`);
  const { format } = sniffed;
  const label = AUDIO_FORMATS[format].label;

  const declaredS = judgeProbe(await probeAudio(inputPath, format, field), format, field);
  const input = pinnedDecodeInput(inputPath, format);
  const toCanonical = `aresample=${MUSIC_ENCODING.sampleRate},aformat=sample_fmts=fltp:channel_layouts=stereo`;

  // Pass one: the loudness of what will be encoded (48 kHz stereo, a mono file spread to both sides).
  const measured = await onTheFile(field, label, () => measureGraph(input, `[0:a:0]${toCanonical}[out]`, { timeoutMs: TIMEOUTS_MS.measure }));
  if (measured.integratedLufs === null) throw new AppError('invalid_media', `${field} is silent; upload a track with sound`);

  // Pass two: one gain (and the limiter only if the peaks need it), encoded once.
  const chain = levelChain(measured, { integratedLufs: MUSIC_ENCODING.integratedLufs, truePeakDbtp: MUSIC_ENCODING.truePeakDbtp }, MUSIC_ENCODING.sampleRate);
  await onTheFile(field, label, () =>
    runFfmpeg(
      [
        '-v', 'error',
        ...input,
        '-map', '0:a:0', '-vn', '-sn', '-dn',
        '-map_metadata', '-1', '-map_chapters', '-1',
        '-af', `${toCanonical},${chain}`,
        // The fast coder: half the twoloop coder's time, the same at 128 kbit/s for a bed under a video.
        '-c:a', MUSIC_ENCODING.codec, '-aac_coder', 'fast', '-b:a', MUSIC_ENCODING.bitrate, '-ar', String(MUSIC_ENCODING.sampleRate), '-ac', String(MUSIC_ENCODING.channels),
        '-movflags', '+faststart',
        '-f', 'mp4', '-y', fileArg(outputPath),
      ],
      { timeoutMs: TIMEOUTS_MS.encode },
    ),
  );

  const durationS = await writtenDuration(outputPath);
  // A file cut short declares more than it holds: what decoded falls short of it.
  if (declaredS - durationS > max(TRUNCATION_TOLERANCE.seconds, declaredS * TRUNCATION_TOLERANCE.fraction)) {
    throw new AppError('invalid_media', `${field} ends at ${fmtDuration(durationS)} of the ${fmtDuration(declaredS)} it declares (truncated or damaged?); export it again and re-upload it`);
  }
  if (durationS > MUSIC_LIMITS.maxDurationS + MUSIC_LIMITS.durationGraceS) {
    throw new AppError('invalid_media', `${field} plays longer than it declares, past ${MUSIC_LIMITS.maxDurationS / 60} minutes; export it again`);
  }
  return { format, durationS: round(durationS * 1000) / 1000, sizeBytes: (await stat(outputPath)).size };
}
