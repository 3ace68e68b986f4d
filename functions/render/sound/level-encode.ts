/**
 * Encodes a sound (a file, or a mix that exists only as a filter graph) to AAC at the target level,
 * in one ffmpeg run that also measures what it encodes: the graph is split, one branch to the
 * encoder, one to ebur128. A miss (a mix louder or quieter than its parts promised, a peak over the
 * ceiling) is corrected and encoded once more. With `pictures`, the same run muxes the finished
 * video: its pictures copied, this sound beside them.
 */
import { randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { fileArg, runFfmpeg } from '../ffmpeg/binaries';
import { CANONICAL } from '../encoding/canonical-encoding';
import { EBUR128_MEASURE, gainChain, measureGraph, measureLoudness, parseEbur128Summary, type Loudness } from './loudness';
import { SOUND_LEVEL } from './levels';
const { abs } = Math;

export interface LevelEncodeInput {
  /** ffmpeg input arguments of the graph's sounds (`-i`, with any per-input options before each). */
  inputs: readonly string[];
  /** A filter graph whose audio ends in the label `[out]`. */
  graph: string;
  outputPath: string;
  /**
   * The mix's loudness when its parts are levelled and balanced (LUFS): the run starts from it
   * instead of measuring the graph first. Without it the graph is measured first (an unknown source).
   */
  expectedLufs?: number;
  /** A finished video: its picture inputs (after the sound's) and the output options that copy them. */
  pictures?: { inputs: readonly string[]; outputArgs: readonly string[] };
  /**
   * Measure the encoded file itself rather than the sound handed to the encoder. For sources whose
   * sharp transients AAC reshapes (synthesised pops, raw uploads): their encode can lift true peaks by
   * 2 dB. Parts that are already AAC (a mix of levelled sounds) move by a few tenths and skip it.
   */
  verifyEncoded?: boolean;
  /**
   * The AAC coder: `fast` for the per-job join (a third of the default's time: about 0.2 s against
   * 0.6 s for 15 s of sound on one core), the default two-loop search for sounds encoded once.
   */
  coder?: 'fast' | 'twoloop';
  timeoutMs?: number;
}

/** How close a result must come to the target before it is kept (well inside the ±1 LU promise). */
const LOUDNESS_SLACK_LU = 0.4;
const ATTEMPTS = 3;

const AAC_OUTPUT_ARGS = [
  '-c:a', CANONICAL.audio.codec,
  '-b:a', CANONICAL.audio.bitrate,
  '-ar', String(CANONICAL.audio.sampleRate),
  '-ac', String(CANONICAL.audio.channels),
  '-map_metadata', '-1',
  '-fflags', '+bitexact',
  '-flags:a', '+bitexact',
] as const;

/** Writes the levelled AAC (an .m4a, or the video with `pictures`) and returns its loudness as encoded. */
export async function encodeLevelled(input: LevelEncodeInput): Promise<Loudness> {
  const timeoutMs = input.timeoutMs ?? 2 * 60_000;
  const { integratedLufs: target, truePeakDbtp: ceiling } = SOUND_LEVEL;
  let gainDb = 0;
  let limit: number | null = null;
  let limitAt = ceiling;
  if (input.expectedLufs !== undefined) {
    gainDb = target - input.expectedLufs;
  } else {
    const source = await measureGraph(input.inputs, input.graph, { timeoutMs });
    if (source.integratedLufs !== null) {
      gainDb = target - source.integratedLufs;
      if ((source.truePeakDbtp ?? -Infinity) + gainDb > ceiling) limit = limitAt;
    }
  }
  const partial = `${input.outputPath}.${randomUUID()}.partial`;
  try {
    for (let attempt = 1; ; attempt++) {
      const result = await encodeOnce(input, partial, gainChain(gainDb, limit), timeoutMs);
      const measured = input.verifyEncoded ? await measureLoudness(partial, { timeoutMs }) : result;
      if (measured.integratedLufs === null) return await keep(partial, input.outputPath, measured);
      const off = target - measured.integratedLufs;
      const peakOver = (measured.truePeakDbtp ?? -Infinity) - ceiling;
      if ((abs(off) <= LOUDNESS_SLACK_LU && peakOver <= 0) || attempt === ATTEMPTS) return await keep(partial, input.outputPath, measured);
      gainDb += off;
      // The encode lifted peaks the limiter had held: hold them lower by as much.
      if (input.verifyEncoded && limit !== null && peakOver > 0) limitAt -= peakOver + 0.2;
      // A limiter, once needed, stays: raising the gain would only push the peaks further.
      if (peakOver + off > 0 || limit !== null) limit = limitAt;
    }
  } finally {
    await fsp.rm(partial, { force: true });
  }
}

async function encodeOnce(input: LevelEncodeInput, partial: string, chain: string, timeoutMs: number): Promise<Loudness> {
  const pictures = input.pictures;
  const { stderrTail } = await runFfmpeg(
    [
      '-v', 'info', '-nostats',
      ...input.inputs,
      ...(pictures?.inputs ?? []),
      '-filter_complex', `${input.graph};[out]${chain},asplit=2[encode][measure];[measure]${EBUR128_MEASURE}[measured]`,
      ...(pictures?.outputArgs ?? []),
      '-map', '[encode]',
      ...AAC_OUTPUT_ARGS,
      '-aac_coder', input.coder ?? 'twoloop',
      '-movflags', '+faststart',
      '-f', 'mp4',
      '-y', fileArg(partial),
      '-map', '[measured]',
      '-f', 'null', '-',
    ],
    { timeoutMs },
  );
  return parseEbur128Summary(stderrTail);
}

async function keep(partial: string, outputPath: string, loudness: Loudness): Promise<Loudness> {
  await fsp.rename(partial, outputPath);
  return loudness;
}
