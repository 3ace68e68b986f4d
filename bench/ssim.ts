/**
 * SSIM between two clips of the same length (ffmpeg's `ssim` filter, luma and chroma together): how
 * much of the picture a cheaper render keeps against a reference render of the same frames.
 */
import { fileArg, runFfmpeg } from '#render';

/** Mean SSIM over all frames (1 = identical); NaN when ffmpeg prints none. */
export async function ssimOf(clip: string, reference: string): Promise<number> {
  const { stderrTail } = await runFfmpeg(['-v', 'info', '-i', fileArg(clip), '-i', fileArg(reference), '-lavfi', '[0:v][1:v]ssim', '-f', 'null', '-']);
  const all = /SSIM .* All:([0-9.]+)/.exec(stderrTail);
  return all ? Number(all[1]) : NaN;
}
