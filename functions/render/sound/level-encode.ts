/**
 * Encodes a sound (a file, or a mix that exists only as a filter graph) to AAC at the target level,
 * and proves it: the encoded file is measured again, because AAC's own encode moves true peaks (by up
 * to a dB on sharp transients) and a limiter costs a little loudness. A miss is corrected and encoded
 * once more: what leaves here measures what the platforms will measure.
 */
import { randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { LOUDNESS_TARGET } from '#domain/sound';
import { fileArg, runFfmpeg } from '../ffmpeg/binaries';
import { CANONICAL } from '../encoding/canonical-encoding';
import { levelChain, measureGraph, measureLoudness, type Loudness } from './loudness';
import { SOUND_LEVEL } from './levels';

export interface LevelEncodeInput {
  /** ffmpeg input arguments (`-i`, with any per-input options before each). */
  inputs: readonly string[];
  /** A filter graph whose audio ends in the label `[out]`. */
  graph: string;
  outputPath: string;
  /** Extra output arguments (e.g. a length cap). */
  outputArgs?: readonly string[];
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

/** Writes the levelled AAC (.m4a) and returns its measured loudness; nothing is left on failure. */
export async function encodeLevelled(input: LevelEncodeInput): Promise<Loudness> {
  const timeoutMs = input.timeoutMs ?? 2 * 60_000;
  const source = await measureGraph(input.inputs, input.graph, { timeoutMs });
  const partial = `${input.outputPath}.${randomUUID()}.partial.m4a`;
  let ceiling = SOUND_LEVEL.truePeakDbtp;
  let gainCorrection = 0;
  try {
    for (let attempt = 1; ; attempt++) {
      const aim: Loudness = source.integratedLufs === null ? source : { ...source, integratedLufs: source.integratedLufs - gainCorrection };
      const chain = levelChain(aim, { integratedLufs: SOUND_LEVEL.integratedLufs, truePeakDbtp: ceiling });
      await runFfmpeg(
        [
          '-v', 'error',
          ...input.inputs,
          '-filter_complex', `${input.graph};[out]${chain}[levelled]`,
          '-map', '[levelled]',
          ...AAC_OUTPUT_ARGS,
          ...(input.outputArgs ?? []),
          '-movflags', '+faststart',
          '-f', 'mp4',
          '-y', fileArg(partial),
        ],
        { timeoutMs },
      );
      const result = await measureLoudness(partial, { timeoutMs });
      if (result.integratedLufs === null || source.integratedLufs === null) return await keep(partial, input.outputPath, result);
      const peakOver = (result.truePeakDbtp ?? -Infinity) - (LOUDNESS_TARGET.truePeakDbtp - 0.1);
      const loudnessOff = SOUND_LEVEL.integratedLufs - result.integratedLufs;
      if ((peakOver <= 0 && Math.abs(loudnessOff) <= LOUDNESS_SLACK_LU) || attempt === ATTEMPTS) return await keep(partial, input.outputPath, result);
      if (peakOver > 0) ceiling -= peakOver + 0.2;
      gainCorrection += loudnessOff;
    }
  } finally {
    await fsp.rm(partial, { force: true });
  }
}

async function keep(partial: string, outputPath: string, loudness: Loudness): Promise<Loudness> {
  await fsp.rename(partial, outputPath);
  return loudness;
}

/** `[0:a]` of a single input as the graph encodeLevelled takes. */
export const singleInputGraph = (path: string) => ({ inputs: ['-i', fileArg(path)], graph: '[0:a]anull[out]' });
