/**
 * Kling motion control takes a reference clip of 3-10 s (with `character_orientation: "image"`, the
 * mode we use) as MP4 or MOV, and answers anything else with a 422 only once the request runs. We
 * accept 0-60 s and four containers at POST (the engine is chosen per deployment), so the fal engine
 * fits the clip before submitting it instead of letting the user wait for a refusal:
 *
 * - already inside the limits, MP4/MOV: sent as it is;
 * - longer: the most active `maxS` window (the most change between frames, sampled at 2 fps on a
 *   small grey copy), so the motion the user wanted copied is the part kept;
 * - shorter: looped up to `minS`;
 * - WebM/AVI: re-encoded to MP4 (H.264, no sound: we send `keep_original_sound: false`).
 *
 * A fitted clip is stored beside the round's output, so the job's clean-up removes it with the rest.
 */
import * as path from 'node:path';
import { readFileHead, fileArg, runFfmpeg, probeMedia, SNIFF_BYTES, sniffVideoContainer, type VideoContainer } from '#render';
import { EngineError } from '#ports/engine';
import type { BlobStore } from '#ports/blob-store';

export interface MotionReferenceLimits {
  minS: number;
  maxS: number;
  containers: readonly VideoContainer[];
}

/** Kling 2.6 motion control with `character_orientation: "image"`. */
const KLING_MOTION_REFERENCE: MotionReferenceLimits = { minS: 3, maxS: 10, containers: ['mp4', 'mov'] };

export interface FittedReference {
  key: string;
  /** Where the window starts in the original clip. */
  startS: number;
  durationS: number;
  refitted: boolean;
}

const SAMPLE_FPS = 2;
const FIT_TIMEOUT_MS = 5 * 60_000;

/** Per-sample change between frames: [time s, mean grey difference]. */
async function motionSamples(file: string): Promise<[number, number][]> {
  const filter = `fps=${SAMPLE_FPS},scale=64:-2,format=gray,tblend=all_mode=difference,signalstats,metadata=mode=print:key=lavfi.signalstats.YAVG:file=-`;
  const { stdout } = await runFfmpeg(['-v', 'error', '-i', fileArg(file), '-an', '-vf', filter, '-f', 'null', '-'], { timeoutMs: FIT_TIMEOUT_MS });
  const samples: [number, number][] = [];
  let at: number | undefined;
  for (const line of stdout.split('\n')) {
    const time = /pts_time:([\d.]+)/.exec(line);
    if (time) at = Number(time[1]);
    const value = /YAVG=([\d.]+)/.exec(line);
    if (value && at !== undefined) samples.push([at, Number(value[1])]);
  }
  return samples;
}

/** The start of the `lengthS` window with the most motion (the earliest among equals). */
export function mostActiveStart(samples: readonly [number, number][], durationS: number, lengthS: number): number {
  const latest = Math.max(0, durationS - lengthS);
  let best = { start: 0, score: -1 };
  for (const [candidate] of [[0, 0] as [number, number], ...samples]) {
    const start = Math.min(candidate, latest);
    const score = samples.filter(([t]) => t >= start && t < start + lengthS).reduce((sum, [, v]) => sum + v, 0);
    if (score > best.score) best = { start, score };
  }
  return best.start;
}

export async function fitMotionReference(
  blobs: Pick<BlobStore, 'getToFile' | 'putFile'>,
  referenceKey: string,
  workDir: string,
  fittedKey: string,
  limits: MotionReferenceLimits = KLING_MOTION_REFERENCE,
): Promise<FittedReference> {
  const source = path.join(workDir, 'motion-reference');
  await blobs.getToFile(referenceKey, source);
  const sniffed = await sniffVideoContainer(await readFileHead(source, SNIFF_BYTES));
  if ('refused' in sniffed) throw new EngineError('invalid_input', `The reference clip is not a video (${sniffed.refused}); upload an MP4 or MOV`);
  const probed = await probeMedia(source, { format: sniffed.demuxer });
  const durationS = probed.ok ? (probed.media.video?.durationS ?? probed.media.durationS ?? 0) : 0;
  if (!probed.ok || !probed.media.video || !(durationS > 0)) {
    throw new EngineError('invalid_input', 'The reference clip cannot be read; export it again and retry');
  }
  if (limits.containers.includes(sniffed.container) && durationS >= limits.minS && durationS <= limits.maxS) {
    return { key: referenceKey, startS: 0, durationS, refitted: false };
  }
  const startS = durationS > limits.maxS ? mostActiveStart(await motionSamples(source), durationS, limits.maxS) : 0;
  const lengthS = Math.min(Math.max(durationS, limits.minS), limits.maxS);
  // A short clip is looped up to the minimum; a long one cut to its window.
  const input = durationS < limits.minS ? ['-stream_loop', '-1', '-i', fileArg(source)] : ['-ss', startS.toFixed(3), '-i', fileArg(source)];
  const fitted = path.join(workDir, 'motion-reference-fitted.mp4');
  await runFfmpeg(
    ['-v', 'error', ...input, '-t', lengthS.toFixed(3), '-an', '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', '-f', 'mp4', '-y', fileArg(fitted)],
    { timeoutMs: FIT_TIMEOUT_MS },
  );
  await blobs.putFile(fittedKey, fitted, 'video/mp4');
  return { key: fittedKey, startS, durationS: lengthS, refitted: true };
}
