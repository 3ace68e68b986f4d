/**
 * The one canonical encoding (docs/architecture.md, Media). Every file that will later be joined by stream copy (the
 * normalised demo, each rendered reaction segment) is made with these settings, so the join needs no
 * re-encode: same frame size, frame rate, track timescale, codec profile/level, pixel format, colour
 * tags, GOP shape and audio layout. Change a value here and every producer changes together; files
 * made before the change must then be normalised again.
 */
import { createHash } from 'node:crypto';
import { fileArg } from '../ffmpeg/binaries';
import type { MediaProbe } from '../ffmpeg/probe';
import { VIDEO_FRAME } from '#domain/video';
const { abs, max, round } = Math;

export const CANONICAL = {
  width: VIDEO_FRAME.width,
  height: VIDEO_FRAME.height,
  fps: 30,
  video: {
    codec: 'h264',
    encoder: 'libx264',
    profile: 'high',
    /** How ffprobe spells the profile. */
    probedProfile: 'High',
    /** 4.1 covers 1080x1920 at 30 fps with the bitrate cap below; players everywhere accept it. */
    level: '4.1',
    pixFmt: 'yuv420p',
    /** Speed over size: 2 Lambda cores, and the demo is encoded once per upload. */
    preset: 'veryfast',
    /**
     * For frames rendered on the fly (the local engine's reaction segments, which must encode in real
     * time). x264's superfast writes byte-identical SPS/PPS to veryfast (1 reference, 3 B-frames,
     * CABAC, 8x8 transform, weighted P), so its segments still join the demo by stream copy; it only
     * searches less: about a quarter less CPU for a slightly larger file. Presets that change those
     * headers (faster: 2 references; ultrafast: baseline tools) would break the join.
     */
    renderedPreset: 'superfast',
    /**
     * Analysis-only savings on top, headers unchanged: no adaptive quantisation and a fixed B-frame
     * pattern (about 20% less CPU again on rendered illustration, same PSNR, ~52 dB at crf 20), and
     * full-pixel motion search (subme=0: another ~10% of the encode's CPU for ~10% more bytes, SSIM
     * unchanged to the fourth decimal on a 4 s reaction; veryfast costs ~50% more CPU and changes the
     * headers). Measured on 720x1280 frames scaled to 1080x1920, 2026-11-25.
     */
    renderedX264Params: 'aq-mode=0:b-adapt=0:subme=0',
    crf: 20,
    /** Closed 2 s GOPs, no scene-cut keyframes: identical stream structure from every producer. */
    gopFrames: 60,
    /** ffmpeg's own default for 30 fps, fixed so that a muxer elsewhere cannot pick another. */
    timescale: 15360,
    /**
     * A ceiling on the video bitrate (VBV; CRF decides below it): what a 1080x1920 social video needs,
     * and what every finished video costs to store and deliver (a 19 s video is about 5 MB instead of
     * 10). Simple footage (screen recordings, illustration) stays under it at crf 20; busy footage is
     * held to it. Measured 2026-11-28 on the benchmark's demo (testsrc2, 720x1280 at crf 26 upscaled):
     * 12M → 2M took the normalised demo from 8.97 to 3.95 MB at SSIM 0.992 against the uncapped file,
     * and a rendered 4 s reaction from 1.44 to 1.21 MB at SSIM 0.998. The VBV settings are not in the
     * SPS/PPS: files made under the old ceiling still join by stream copy.
     */
    maxrate: '2M',
    bufsize: '4M',
  },
  audio: {
    codec: 'aac',
    sampleRate: 48000,
    channels: 2,
    channelLayout: 'stereo',
    bitrate: '128k',
  },
} as const;

/**
 * Names the settings a canonical file was made with, so a file stored with this id (a normalised demo)
 * is known to pass `canonicalMismatches` without probing it again for every job. The bitrate ceiling
 * is left out: it shapes no header (files made under another one still join). Any other change to
 * CANONICAL changes the id, and files stored with an older one are probed as before.
 */
export const CANONICAL_ENCODING_ID = createHash('sha256')
  .update(JSON.stringify({ ...CANONICAL, video: { ...CANONICAL.video, maxrate: null, bufsize: null } }))
  .digest('hex')
  .slice(0, 16);

const AUDIO_SAMPLES_PER_FRAME = CANONICAL.audio.sampleRate / CANONICAL.fps;

/** Whole frames covering a duration (at least one): canonical files have exact, frame-aligned length. */
export function canonicalFrameCount(durationS: number): number {
  return max(1, round(durationS * CANONICAL.fps));
}

/** Constant 30 fps from 0: a video track that starts late is padded from 0 so audio and video stay aligned. */
export function canonicalRate(): string {
  return `fps=fps=${CANONICAL.fps}:start_time=0`;
}

/** The output side of every scale into the frame: BT.709 limited range, square pixels. */
export const TO_CANONICAL_COLOUR = 'out_color_matrix=bt709:out_range=tv';

/**
 * Scales to fit inside 1080x1920 keeping the display aspect (non-square pixels included), to even
 * sizes (4:2:0 chroma stays whole), square pixels out.
 */
export function fitInsideCanonicalFrame(): string {
  const { width: W, height: H } = CANONICAL;
  // Single quotes protect the commas inside min() from the filtergraph parser.
  const k = `min(${W}/(iw*sar),${H}/ih)`;
  return [`scale=w='trunc(${k}*iw*sar/2)*2':h='trunc(${k}*ih/2)*2':${TO_CANONICAL_COLOUR}`, 'setsar=1'].join(',');
}

/**
 * Video filter chain: constant 30 fps, fit inside 1080x1920 keeping the display aspect, centre on
 * black, BT.709 limited-range 4:2:0. Input rotation is applied by ffmpeg before this chain
 * (autorotate), so sizes here are display sizes.
 */
export function fitToCanonicalFrame(): string {
  const { width: W, height: H } = CANONICAL;
  return [canonicalRate(), fitInsideCanonicalFrame(), `pad=${W}:${H}:(ow-iw)/2:(oh-ih)/2:black`, `format=${CANONICAL.video.pixFmt}`].join(',');
}

/** Any audio in, 48 kHz stereo float out, starting at 0 with gaps filled (timestamps are trusted). */
export function toCanonicalAudio(): string {
  const { sampleRate, channelLayout } = CANONICAL.audio;
  return `aresample=${sampleRate}:async=1:first_pts=0,aformat=sample_fmts=fltp:sample_rates=${sampleRate}:channel_layouts=${channelLayout}`;
}

/** Silence in the canonical layout, for sources without sound (the join needs audio on both sides). */
export function canonicalSilence(): string {
  return `anullsrc=r=${CANONICAL.audio.sampleRate}:cl=${CANONICAL.audio.channelLayout}`;
}

/**
 * Cuts (or pads) both streams to exactly `frames` frames and frames*1600 samples. The trims live in
 * the filter graph on purpose: with `-frames:v`/`-shortest` the 2018 ffmpeg drops the last partial
 * AAC frame, leaving audio ~16 ms short of the video in every file, which a join would accumulate.
 */
export function canonicalLength(frames: number): { video: string; audio: string } {
  const samples = frames * AUDIO_SAMPLES_PER_FRAME;
  return {
    video: `tpad=stop=-1:stop_mode=clone,trim=end_frame=${frames}`,
    audio: `apad=whole_len=${samples},atrim=end_sample=${samples}`,
  };
}

/** `standard` for transcodes (the demo); `rendered` for frames made on the fly (see renderedPreset). */
export type CanonicalSpeed = 'standard' | 'rendered';

/** `{ crf: 20, 'c:a': 'aac' }` → `['-crf', '20', '-c:a', 'aac']`, in the record's order. */
const ffmpegOptions = (options: Record<string, string | number>): string[] => Object.entries(options).flatMap(([name, value]) => [`-${name}`, String(value)]);

/** Encoder and muxer arguments: everything after `-map`, before the output path. */
export function canonicalEncodeArgs(options: { speed?: CanonicalSpeed } = {}): string[] {
  const v = CANONICAL.video;
  const a = CANONICAL.audio;
  const rendered = options.speed === 'rendered';
  return ffmpegOptions({
    'c:v': v.encoder,
    preset: rendered ? v.renderedPreset : v.preset,
    ...(rendered ? { 'x264-params': v.renderedX264Params } : {}),
    crf: v.crf,
    maxrate: v.maxrate,
    bufsize: v.bufsize,
    'profile:v': v.profile,
    'level:v': v.level,
    pix_fmt: v.pixFmt,
    g: v.gopFrames,
    keyint_min: v.gopFrames,
    sc_threshold: 0,
    colorspace: 'bt709',
    color_primaries: 'bt709',
    color_trc: 'bt709',
    color_range: 'tv',
    'c:a': a.codec,
    'b:a': a.bitrate,
    ar: a.sampleRate,
    ac: a.channels,
    // Uploaded phone videos carry GPS and device tags: nothing of the source's metadata is kept.
    map_metadata: -1,
    map_chapters: -1,
    video_track_timescale: v.timescale,
    movflags: '+faststart',
    f: 'mp4',
  });
}

/** What differs from the canonical encoding; empty when a file can be joined by stream copy. */
export function canonicalMismatches(media: MediaProbe): string[] {
  const { video: v, audio: a } = media;
  return [
    ...(media.formatNames.includes('mp4') ? [] : [`container is ${media.formatNames.join(',') || 'unknown'}, expected mp4`]),
    ...streamMismatches(
      'video',
      v && {
        'video codec': [v.codec, CANONICAL.video.codec],
        'video profile': [v.profile, CANONICAL.video.probedProfile],
        'pixel format': [v.pixFmt, CANONICAL.video.pixFmt],
        'frame size': [`${v.displayWidth}x${v.displayHeight}`, `${CANONICAL.width}x${CANONICAL.height}`],
        rotation: [v.rotation, 0],
        'video time base': [v.timeBase, `1/${CANONICAL.video.timescale}`],
      },
    ),
    ...(v && (v.fps === null || abs(v.fps - CANONICAL.fps) > 0.01) ? [`frame rate is ${v.fps}, expected ${CANONICAL.fps}`] : []),
    ...streamMismatches(
      'audio',
      a && {
        'audio codec': [a.codec, CANONICAL.audio.codec],
        'audio sample rate': [a.sampleRate, CANONICAL.audio.sampleRate],
        'audio channels': [a.channels, CANONICAL.audio.channels],
      },
    ),
  ];
}

/** A stream's probed facts that are not the canonical ones (`[got, want]` by the name a problem gives); a missing stream is one problem. */
function streamMismatches(kind: 'video' | 'audio', facts: Record<string, [got: unknown, want: unknown]> | null | undefined): string[] {
  if (!facts) return [`no ${kind} stream`];
  return Object.entries(facts)
    .filter(([, [got, want]]) => got !== want)
    .map(([what, [got, want]]) => `${what} is ${String(got)}, expected ${String(want)}`);
}

/**
 * An ffconcat list for joining canonical files by stream copy. The `duration` lines matter: without
 * them the concat demuxer offsets each file by its probed length, which includes the AAC priming
 * delay, and every join drifts the video ~21 ms late.
 */
export function canonicalConcatList(parts: ReadonlyArray<{ path: string; durationS: number }>): string {
  const quote = (p: string) => `'${p.replace(/'/g, "'\\''")}'`;
  const lines = ['ffconcat version 1.0'];
  for (const part of parts) {
    lines.push(`file ${quote(part.path)}`, `duration ${part.durationS.toFixed(6)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** ffmpeg arguments that join the files of a concat list without re-encoding them. */
export function canonicalJoinArgs(listPath: string, outputPath: string): string[] {
  return [
    '-v', 'error',
    '-f', 'concat',
    '-safe', '0',
    '-i', fileArg(listPath),
    '-map', '0',
    '-c', 'copy',
    '-map_metadata', '-1',
    '-video_track_timescale', String(CANONICAL.video.timescale),
    '-movflags', '+faststart',
    '-f', 'mp4',
    '-y', fileArg(outputPath),
  ];
}
