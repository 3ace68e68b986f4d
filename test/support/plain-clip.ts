/** A clip of one flat colour and nothing in it: what a generated reaction that lost its person looks like to a face finder. */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileArg, runFfmpeg } from '#render';

/** An H.264 MP4 of a plain colour, 540x960 (9:16), 2 s at 30 fps; the caller removes its folder. */
export async function plainColourClip(colour = '0x3a6ea5'): Promise<{ file: string; dir: string }> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'plain-clip-'));
  const file = path.join(dir, 'plain.mp4');
  await runFfmpeg(
    ['-v', 'error', '-f', 'lavfi', '-i', `color=c=${colour}:s=540x960:r=30:d=2`, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-f', 'mp4', '-y', fileArg(file)],
    { timeoutMs: 60_000 },
  );
  return { file, dir };
}
