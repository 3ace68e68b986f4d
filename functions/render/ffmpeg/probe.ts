/**
 * ffprobe's view of a media file, reduced to the facts the service decides on. Probing never throws:
 * callers must tell "the user's file is bad" (422) from "our tooling is broken" (500), so both come
 * back as data.
 */
import { MediaToolError, runFfprobe } from './binaries';
import { readFileHead } from './file-head';
import { pinnedInput, sniffVideoContainer, SNIFF_BYTES, type Demuxer } from './video-container';
const { round } = Math;

interface VideoStreamInfo {
  index: number;
  codec: string;
  profile: string | null;
  pixFmt: string | null;
  /** Stored (coded) size, before any rotation. */
  width: number;
  height: number;
  /** Clockwise degrees a player turns the picture: 0, 90, 180 or 270. */
  rotation: 0 | 90 | 180 | 270;
  /** Size as displayed, after rotation. */
  displayWidth: number;
  displayHeight: number;
  fps: number | null;
  /** e.g. "1/15360": the track timescale, which stream-copy joins depend on. */
  timeBase: string | null;
  startS: number | null;
  durationS: number | null;
  frameCount: number | null;
}

interface AudioStreamInfo {
  index: number;
  codec: string;
  sampleRate: number | null;
  channels: number | null;
  startS: number | null;
  durationS: number | null;
}

export interface MediaProbe {
  /** ffprobe's demuxer names, e.g. ["mov","mp4","m4a","3gp","3g2","mj2"] or ["avi"]. */
  formatNames: string[];
  majorBrand: string | null;
  startS: number | null;
  durationS: number | null;
  sizeBytes: number | null;
  /** The first real video stream; cover art (attached pictures) does not count. */
  video: VideoStreamInfo | null;
  audio: AudioStreamInfo | null;
}

type ProbeFailureReason =
  /** ffprobe ran and could not read the file: damaged, truncated or not media. */
  | 'unreadable'
  /** ffprobe took too long: treat as a hostile or broken file. */
  | 'timeout'
  /** ffprobe itself is missing or could not start: our fault, not the file's. */
  | 'tool_unavailable';

export type ProbeResult =
  | { ok: true; media: MediaProbe; demuxer: Demuxer }
  | { ok: false; reason: ProbeFailureReason; detail: string };

interface RawStream {
  index?: number;
  codec_type?: string;
  codec_name?: string;
  profile?: string;
  pix_fmt?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  time_base?: string;
  start_time?: string;
  duration?: string;
  nb_frames?: string;
  sample_rate?: string;
  channels?: number;
  disposition?: { attached_pic?: number };
  tags?: Record<string, string>;
  side_data_list?: Array<{ side_data_type?: string; rotation?: number | string }>;
}

interface RawProbe {
  streams?: RawStream[];
  format?: { format_name?: string; start_time?: string; duration?: string; size?: string; tags?: Record<string, string> };
}

function num(value: string | number | undefined | null): number | null {
  if (value === undefined || value === null || value === '' || value === 'N/A') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

function rate(value: string | undefined): number | null {
  if (!value) return null;
  const [a, b] = value.split('/').map(Number);
  if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || a <= 0 || b <= 0) return null;
  return a / b;
}

/**
 * Old muxers write a clockwise `rotate` tag; newer ffprobe only reports the display matrix, whose
 * `rotation` is counter-clockwise. Both are folded into one clockwise quarter turn.
 */
export function streamRotation(stream: Pick<RawStream, 'tags' | 'side_data_list'>): 0 | 90 | 180 | 270 {
  let clockwise: number | null = null;
  const matrix = stream.side_data_list?.find((s) => s.side_data_type === 'Display Matrix' && s.rotation !== undefined);
  const fromMatrix = num(matrix?.rotation);
  if (fromMatrix !== null) clockwise = -fromMatrix;
  else {
    const fromTag = num(stream.tags?.rotate);
    if (fromTag !== null) clockwise = fromTag;
  }
  if (clockwise === null) return 0;
  const quarter = ((round(clockwise / 90) % 4) + 4) % 4;
  return ([0, 90, 180, 270] as const)[quarter] ?? 0;
}

function toVideo(s: RawStream): VideoStreamInfo | null {
  const width = s.width ?? 0;
  const height = s.height ?? 0;
  if (width <= 0 || height <= 0) return null;
  const rotation = streamRotation(s);
  const sideways = rotation === 90 || rotation === 270;
  return {
    index: s.index ?? 0,
    codec: s.codec_name ?? 'unknown',
    profile: s.profile ?? null,
    pixFmt: s.pix_fmt ?? null,
    width,
    height,
    rotation,
    displayWidth: sideways ? height : width,
    displayHeight: sideways ? width : height,
    // avg_frame_rate reflects what plays; r_frame_rate is a guess that over-reports for VFR phones.
    fps: rate(s.avg_frame_rate) ?? rate(s.r_frame_rate),
    timeBase: s.time_base ?? null,
    startS: num(s.start_time),
    durationS: num(s.duration),
    frameCount: num(s.nb_frames),
  };
}

function toAudio(s: RawStream): AudioStreamInfo {
  return {
    index: s.index ?? 0,
    codec: s.codec_name ?? 'unknown',
    sampleRate: num(s.sample_rate),
    channels: s.channels ?? null,
    startS: num(s.start_time),
    durationS: num(s.duration),
  };
}

/** Pure: turns ffprobe's JSON into a MediaProbe (exported for tests of odd inputs). */
export function parseProbeOutput(raw: RawProbe): MediaProbe {
  const streams = raw.streams ?? [];
  let video: VideoStreamInfo | null = null;
  for (const s of streams) {
    if (s.codec_type !== 'video' || s.disposition?.attached_pic === 1) continue;
    video = toVideo(s);
    if (video) break;
  }
  const audioStream = streams.find((s) => s.codec_type === 'audio');
  const format = raw.format ?? {};
  return {
    formatNames: (format.format_name ?? '').split(',').filter(Boolean),
    majorBrand: format.tags?.major_brand ?? null,
    startS: num(format.start_time),
    durationS: num(format.duration),
    sizeBytes: num(format.size),
    video,
    audio: audioStream ? toAudio(audioStream) : null,
  };
}

/**
 * Probes a file with one demuxer pinned: `format` when the caller has sniffed it already, else the one
 * the file's first bytes name (video-container.ts). A file whose bytes name no accepted container is
 * `unreadable` without ffprobe ever seeing it.
 */
export async function probeMedia(path: string, options: { timeoutMs?: number; format?: Demuxer } = {}): Promise<ProbeResult> {
  let demuxer = options.format;
  if (!demuxer) {
    let head: Buffer;
    try {
      head = await readFileHead(path, SNIFF_BYTES);
    } catch (error) {
      return { ok: false, reason: 'unreadable', detail: error instanceof Error ? error.message : String(error) };
    }
    const sniffed = await sniffVideoContainer(head);
    if ('refused' in sniffed) return { ok: false, reason: 'unreadable', detail: `not a supported video container: ${sniffed.refused}` };
    demuxer = sniffed.demuxer;
  }
  let stdout: string;
  try {
    ({ stdout } = await runFfprobe(
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...pinnedInput(path, demuxer)],
      { timeoutMs: options.timeoutMs ?? 30_000 },
    ));
  } catch (error) {
    if (error instanceof MediaToolError && error.kind === 'exit') {
      return { ok: false, reason: 'unreadable', detail: error.stderrTail.trim() || error.message };
    }
    if (error instanceof MediaToolError && error.kind === 'timeout') {
      return { ok: false, reason: 'timeout', detail: error.message };
    }
    return { ok: false, reason: 'tool_unavailable', detail: error instanceof Error ? error.message : String(error) };
  }
  let media: MediaProbe;
  try {
    media = parseProbeOutput(JSON.parse(stdout) as RawProbe);
  } catch {
    return { ok: false, reason: 'unreadable', detail: 'ffprobe printed no readable description of the file' };
  }
  if (demuxer === 'matroska' && media.video && media.video.durationS === null && media.durationS === null) {
    media.video.durationS = await packetsEndS(path, demuxer, media.video.index, options.timeoutMs ?? 30_000);
  }
  return { ok: true, media, demuxer };
}

/**
 * Where a stream's last packet ends, read packet by packet (demuxed, not decoded). For WebM written as
 * a live stream (a browser's MediaRecorder, a screen recorder piping its output), which has no
 * duration in its header and no index to seek to the end with. Null when there are no timed packets.
 */
async function packetsEndS(path: string, demuxer: Demuxer, streamIndex: number, timeoutMs: number): Promise<number | null> {
  let stdout: string;
  try {
    ({ stdout } = await runFfprobe(
      ['-v', 'error', '-select_streams', String(streamIndex), '-show_entries', 'packet=pts_time,duration_time', '-of', 'csv=p=0', ...pinnedInput(path, demuxer)],
      { timeoutMs },
    ));
  } catch {
    // Probing never throws: a file ffprobe cannot walk has no usable duration, which its caller refuses.
    return null;
  }
  let end: number | null = null;
  for (const line of stdout.split('\n')) {
    const [pts, duration] = line.split(',').map(num);
    if (pts === null || pts === undefined) continue;
    const packetEnd = pts + (duration ?? 0);
    if (end === null || packetEnd > end) end = packetEnd;
  }
  return end;
}
