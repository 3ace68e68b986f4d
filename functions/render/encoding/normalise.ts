/**
 * Re-encodes an accepted demo video, once, into the canonical encoding, so that every finished video
 * is just "reaction segment + this file" joined by stream copy (docs/architecture.md, Media): framed
 * as asked (demo-framing.ts) and cut to the part asked for.
 */
import { randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { AppError } from '#domain/errors';
import type { NormalisedDemo } from '#ports/demo-media';
import { fileArg, runFfmpeg } from '../ffmpeg/binaries';
import {
  canonicalEncodeArgs,
  canonicalFrameCount,
  canonicalLength,
  canonicalMismatches,
  canonicalSilence,
  CANONICAL_ENCODING_ID,
  toCanonicalAudio,
} from './canonical-encoding';
import { framedVideoGraph, type DemoFraming } from './demo-framing';
import { probeMedia, type MediaProbe } from '../ffmpeg/probe';
import { pinnedInput, type Demuxer } from '../ffmpeg/video-container';
import { levelChain, measureGraph, type Loudness } from '../sound/loudness';
import { SOUND_LEVEL } from '../sound/levels';
const { max, min } = Math;

/** Read past the cut by this much: the graph cuts to the exact frame, and a short read would end on a cloned frame. */
const READ_MARGIN_S = 0.25;

/** What a normalisation made: the demo port's record of it (CANONICAL_ENCODING_ID, length, size, loudness). */
export type NormaliseResult = NormalisedDemo;

/**
 * Where the picture ends, on the file's own clock (ffmpeg shifts input so the earliest stream starts
 * at 0): a video track that starts late still ends at start + duration.
 */
function videoEndS(media: MediaProbe): number | null {
  const v = media.video;
  if (v?.durationS && v.durationS > 0) return max(0, (v.startS ?? 0) - (media.startS ?? 0)) + v.durationS;
  return media.durationS && media.durationS > 0 ? media.durationS : null;
}

/** The part of the input kept: from `startS`, `keepS` long. */
interface Cut {
  startS: number;
  keepS: number;
}

/**
 * The input options that open the upload at the cut, with the demuxer ffprobe was pinned to (the
 * upload is untrusted). Seeking before the input is exact when ffmpeg decodes (it drops what comes
 * before the point) and starts the kept part at 0; `-t` stops reading after it.
 */
function cutInput(inputPath: string, demuxer: Demuxer, cut: Cut, trimmed: boolean): string[] {
  const seek = cut.startS > 0 ? ['-ss', cut.startS.toFixed(3)] : [];
  const stop = trimmed ? ['-t', (cut.keepS + READ_MARGIN_S).toFixed(3)] : [];
  return [...seek, ...stop, ...pinnedInput(inputPath, demuxer)];
}

/** The full ffmpeg argument list. */
function normaliseArgs(input: string[], outputPath: string, media: MediaProbe, frames: number, framing: DemoFraming, loudness: Loudness | null): string[] {
  const video = media.video;
  if (!video) throw new Error('normaliseArgs needs a video stream');
  const length = canonicalLength(frames);
  // Levelled here, once: every video made from this demo then joins it at the same loudness.
  const audioChain = media.audio && loudness ? `[0:${media.audio.index}]${toCanonicalAudio()},${levelChain(loudness, SOUND_LEVEL)}` : canonicalSilence();
  const graph = [framedVideoGraph(framing, `[0:${video.index}]`, length.video, '[v]'), `${audioChain},${length.audio}[a]`].join(';');
  return [
    '-v', 'error',
    ...input,
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
async function measureDemoAudio(input: string[], media: MediaProbe, keepS: number): Promise<Loudness | null> {
  if (!media.audio) return null;
  const measured = await measureGraph(input, `[0:${media.audio.index}]${toCanonicalAudio()},atrim=end=${keepS.toFixed(3)}[out]`, {
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
    /** How the picture goes into the frame (default `fit`). */
    framing?: DemoFraming;
    /** Where the kept part starts and ends, in seconds of the input (defaults: its start and its end). */
    startS?: number;
    endS?: number;
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

  const startS = options.startS ?? 0;
  const stopS = min(endS, options.endS ?? endS, options.maxDurationS !== undefined ? startS + options.maxDurationS : endS);
  if (!(stopS > startS)) throw new AppError('invalid_media', `demo_video ends at ${endS.toFixed(1)} s, before the part asked for starts`);
  const cut = { startS, keepS: stopS - startS };
  const input = cutInput(inputPath, probed.demuxer, cut, stopS < endS || startS > 0);

  const partial = `${outputPath}.${randomUUID()}.partial`;
  try {
    const loudness = await measureDemoAudio(input, media, cut.keepS);
    await runFfmpeg(normaliseArgs(input, partial, media, canonicalFrameCount(cut.keepS), options.framing ?? 'fit', loudness), {
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
