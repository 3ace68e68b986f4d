/**
 * Loudness as the platforms measure it (ITU-R BS.1770 / EBU R128): integrated loudness, loudness
 * range and true peak, read from ffmpeg's `ebur128` filter. Levelling is two-pass: measure, then apply
 * one gain (and a true-peak limiter only where the gain would push peaks over the ceiling).
 */
import { fileArg, runFfmpeg } from '../ffmpeg/binaries';
const { min } = Math;

export interface Loudness {
  /** Integrated loudness, LUFS; null for silence (everything under the −70 LUFS gate). */
  integratedLufs: number | null;
  /** Loudness range, LU. */
  rangeLu: number;
  /** True peak (4× oversampled), dBTP; null for digital silence. */
  truePeakDbtp: number | null;
}

const numberAfter = (text: string, label: string): number | null => {
  const match = new RegExp(`${label}\\s+(-?inf|-?[0-9.]+)`).exec(text);
  if (!match) return null;
  const value = Number(match[1]);
  return Number.isFinite(value) ? value : null;
};

/** Reads the summary ebur128 prints at the end (the last one, if a graph has several). */
export function parseEbur128Summary(stderr: string): Loudness {
  const at = stderr.lastIndexOf('Summary:');
  if (at < 0) throw new Error('ffmpeg printed no loudness summary');
  const summary = stderr.slice(at);
  const integrated = numberAfter(summary, 'I:');
  return {
    // ebur128 reports −70 when every block was gated out: that is silence, not a level.
    integratedLufs: integrated === null || integrated <= -70 ? null : integrated,
    rangeLu: numberAfter(summary, 'LRA:') ?? 0,
    truePeakDbtp: numberAfter(summary, 'Peak:'),
  };
}

/** The ebur128 measuring chain (true peak on; the per-frame log goes to the verbose level, under the `info` we read) for a graph's last audio label. */
export const EBUR128_MEASURE = 'ebur128=peak=true:framelog=verbose';

/** Measures the first audio stream of a file. */
export async function measureLoudness(path: string, options: { timeoutMs?: number } = {}): Promise<Loudness> {
  const { stderrTail } = await runFfmpeg(['-v', 'info', '-nostats', '-i', fileArg(path), '-map', '0:a:0', '-af', EBUR128_MEASURE, '-f', 'null', '-'], {
    timeoutMs: options.timeoutMs ?? 60_000,
  });
  return parseEbur128Summary(stderrTail);
}

/** Measures what a filter graph's `[out]` label sounds like (for a mix that exists only as a graph). */
export async function measureGraph(inputs: readonly string[], graph: string, options: { timeoutMs?: number } = {}): Promise<Loudness> {
  const { stderrTail } = await runFfmpeg(
    ['-v', 'info', '-nostats', ...inputs, '-filter_complex', `${graph};[out]${EBUR128_MEASURE}[measured]`, '-map', '[measured]', '-f', 'null', '-'],
    { timeoutMs: options.timeoutMs ?? 60_000 },
  );
  return parseEbur128Summary(stderrTail);
}

export interface LevelTarget {
  integratedLufs: number;
  /** The ceiling the true peak must stay under after the gain. */
  truePeakDbtp: number;
}

/** How far a level may be raised: past this, a quiet source is mostly its noise floor made loud. */
const MAX_GAIN_DB = 30;

/**
 * The filter chain that brings a measured source to `target`: one gain, then, only if that gain
 * would push the true peak over the ceiling, a limiter run 4× oversampled (so it catches the peaks
 * between samples that a plain sample-peak limiter misses). Silence stays silence.
 */
export function levelChain(measured: Loudness, target: LevelTarget, sampleRate = 48_000): string {
  if (measured.integratedLufs === null) return 'anull';
  const gainDb = min(MAX_GAIN_DB, target.integratedLufs - measured.integratedLufs);
  const peakAfter = (measured.truePeakDbtp ?? -Infinity) + gainDb;
  return gainChain(gainDb, peakAfter > target.truePeakDbtp ? target.truePeakDbtp : null, sampleRate);
}

/** A gain, and a true-peak limiter at `limitDbtp` when one is given. */
export function gainChain(gainDb: number, limitDbtp: number | null, sampleRate = 48_000): string {
  const gain = `volume=${min(MAX_GAIN_DB, gainDb).toFixed(2)}dB:precision=float`;
  if (limitDbtp === null) return gain;
  return [
    gain,
    `aresample=${sampleRate * 4}`,
    // level=disabled: the limiter must not make up the gain it takes (that is the gain step's job).
    `alimiter=limit=${(10 ** (limitDbtp / 20)).toFixed(4)}:attack=1:release=60:level=disabled`,
    `aresample=${sampleRate}`,
  ].join(',');
}
