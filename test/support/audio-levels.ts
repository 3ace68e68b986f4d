/** How loud a file's sound is, read by ffmpeg's volumedetect: for checks that a track carries speech, or silence. */
import { fileArg, runFfmpeg } from '#render';

export interface AudioLevels {
  /** dB relative to full scale; -Infinity for digital silence. */
  mean: number;
  max: number;
}

/** The levels of the first audio track over [fromS, fromS + lengthS) (the whole file by default). */
export async function audioLevels(file: string, window: { fromS?: number; lengthS?: number } = {}): Promise<AudioLevels> {
  const cut = [...(window.fromS !== undefined ? ['-ss', String(window.fromS)] : []), ...(window.lengthS !== undefined ? ['-t', String(window.lengthS)] : [])];
  const { stderrTail } = await runFfmpeg(['-v', 'info', ...cut, '-i', fileArg(file), '-map', '0:a:0', '-af', 'volumedetect', '-f', 'null', '-']);
  const read = (name: string) => {
    const value = new RegExp(`${name}: (-?[\\d.]+|-inf) dB`).exec(stderrTail)?.[1];
    if (value === undefined) throw new Error(`volumedetect printed no ${name}: ${stderrTail}`);
    return value === '-inf' ? -Infinity : Number(value);
  };
  return { mean: read('mean_volume'), max: read('max_volume') };
}
