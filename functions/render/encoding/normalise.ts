/**
 * Re-encodes an accepted demo video, once, into the canonical encoding, so that every finished video
 * is just "reaction segment + this file" joined by stream copy (docs/architecture.md, Media).
 */
import { randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { AppError } from '#domain/errors';
import { fileArg, runFfmpeg } from '../ffmpeg/binaries';
import {
  canonicalEncodeArgs,
  canonicalFrameCount,
  canonicalLength,
  canonicalMismatches,
  canonicalSilence,
  CANONICAL_ENCODING_ID,
  fitToCanonicalFrame,
  toCanonicalAudio,
} from './canonical-encoding';
import { probeMedia, type MediaProbe } from '../ffmpeg/probe';
import { pinnedInput, type Demuxer } from '../ffmpeg/video-container';
import { levelChain, measureGraph, type Loudness } from '../sound/loudness';
import { SOUND_LEVEL } from '../sound/levels';
const { max, min } = Math;

export interface NormaliseResult {
  /** CANONICAL_ENCODING_ID of the settings the file was made with. */
  encoding: string;
  durationS: number;
  width: number;
  height: number;
  sizeBytes: number;
  /** Integrated loudness of the written audio (the sound target), or null: the demo has no sound. */
  loudnessLufs: number | null;
}

/**
 * Where the picture ends, on the file's own clock (ffmpeg shifts input so the earliest stream starts
 * at 0): a video track that starts late still ends at start + duration.
 */
function videoEndS(media: MediaProbe): number | null {
  const v = media.video;
  if (v?.durationS && v.durationS > 0) return max(0, (v.startS ?? 0) - (media.startS ?? 0)) + v.durationS;
  return media.durationS && media.durationS > 0 ? media.durationS : null;
}

/**
 * The full ffmpeg argument list (exported so tests and benchmarks can show what is run). The input is
 * read with the demuxer ffprobe was pinned to: the upload is untrusted.
 */
function normaliseArgs(inputPath: string, outputPath: string, media: MediaProbe, frames: number, demuxer: Demuxer, loudness: Loudness | null): string[] {
  const video = media.video;
  if (!video) throw new Error('normaliseArgs needs a video stream');
  const length = canonicalLength(frames);
  // Levelled here, once: every video made from this demo then joins it at the same loudness.
  const audioChain = media.audio && loudness ? `[0:${media.audio.index}]${toCanonicalAudio()},${levelChain(loudness, SOUND_LEVEL)}` : canonicalSilence();
  const graph = [
    `[0:${video.index}]${fitToCanonicalFrame()},${length.video}[v]`,
    `${audioChain},${length.audio}[a]`,
  ].join(';');
  return [
    '-v', 'error',
    ...pinnedInput(inputPath, demuxer),
    '-filter_complex', graph,
    '-map', '[v]',
    '-map', '[a]',
    ...canonicalEncodeArgs(),
    '-y', fileArg(outputPath),
  ];
}

/**
 * The first pass of levelling: the loudness of the part of the audio that will be kept. Null when
 * there is no audio or only silence (nothing to level: the demo stays silent).
 */
async function measureDemoAudio(inputPath: string, media: MediaProbe, demuxer: Demuxer, keepS: number): Promise<Loudness | null> {
  if (!media.audio) return null;
  const measured = await measureGraph(pinnedInput(inputPath, demuxer), `[0:${media.audio.index}]${toCanonicalAudio()},atrim=end=${keepS.toFixed(3)}[out]`, {
    timeoutMs: 5 * 60_000,
  });
  return measured.integratedLufs === null ? null : measured;
}

/**
 * Writes the canonical encoding of `inputPath` to `outputPath` and returns what was written, read back
 * with ffprobe. The output appears only when complete (written beside it, then renamed); on failure
 * nothing is left behind. An input ffprobe cannot read is the user's problem (AppError invalid_media);
 * an ffmpeg failure is reported as the MediaToolError, with ffmpeg's stderr tail.
 */
export async function normaliseVideo(
  inputPath: string,
  outputPath: string,
  options: {
    timeoutMs?: number;
    /** Keeps at most this many seconds from the start (e.g. a generated reaction clip cut to 5 s). */
    maxDurationS?: number;
  } = {},
): Promise<NormaliseResult> {
  const probed = await probeMedia(inputPath);
  if (!probed.ok) {
    if (probed.reason === 'tool_unavailable') throw new Error(`cannot normalise video: ${probed.detail}`);
    // ffprobe's words name our temp paths: they go to the cause (logs), not to the client.
    throw new AppError('invalid_media', 'demo_video could not be read (truncated or damaged?); export the video again and re-upload it', {
      cause: new Error(probed.detail),
    });
  }
  const media = probed.media;
  const endS = videoEndS(media);
  if (!media.video || endS === null) {
    throw new AppError('invalid_media', 'demo_video has no playable video stream');
  }

  const partial = `${outputPath}.${randomUUID()}.partial`;
  try {
    const keepS = options.maxDurationS !== undefined ? min(endS, options.maxDurationS) : endS;
    const loudness = await measureDemoAudio(inputPath, media, probed.demuxer, keepS);
    await runFfmpeg(normaliseArgs(inputPath, partial, media, canonicalFrameCount(keepS), probed.demuxer, loudness), {
      timeoutMs: options.timeoutMs ?? 10 * 60_000,
    });
    const written = await probeMedia(partial, { format: 'mov' });
    if (!written.ok) throw new Error(`normalised output is unreadable: ${written.detail}`);
    // A mismatch here would break every later stream-copy join, so it fails now, loudly.
    const problems = canonicalMismatches(written.media);
    if (problems.length > 0) throw new Error(`normalised output is not canonical: ${problems.join('; ')}`);
    await fsp.rename(partial, outputPath);
    const out = written.media;
    return {
      encoding: CANONICAL_ENCODING_ID,
      durationS: out.durationS ?? 0,
      width: out.video?.displayWidth ?? 0,
      height: out.video?.displayHeight ?? 0,
      sizeBytes: (await fsp.stat(outputPath)).size,
      loudnessLufs: loudness ? SOUND_LEVEL.integratedLufs : null,
    };
  } catch (error) {
    await fsp.rm(partial, { force: true });
    throw error;
  }
}
