/**
 * Demos at a chosen loudness, music-like or speech-like, and the built-in sounds rendered once per
 * machine: what the sound suites level, mix and measure. Made with the project's own ffmpeg and
 * espeak-ng, cached under the OS temp dir by recipe.
 */
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { espeakPath, fileArg, measureLoudness, renderBuiltInSound, runFfmpeg, runFfprobe, BUILT_IN_SOUNDS_VERSION } from '#render';

const CACHE = path.join(os.tmpdir(), 'rs-sound-fixtures');

/**
 * The built-in sounds rendered for tests, shared by every worker and run on this machine: laid out as
 * BlobSoundBank's cacheDir (`v<version>/<id>.m4a`), so the test stacks and these fixtures render each
 * sound once.
 */
export const TEST_SOUND_CACHE = path.join(__dirname, '..', '..', 'node_modules', '.cache', 'reaction-studio-tests', 'sounds');

async function cached(recipe: string, ext: string, make: (out: string) => Promise<void>): Promise<string> {
  const file = path.join(CACHE, `${createHash('sha256').update(recipe).digest('hex').slice(0, 16)}.${ext}`);
  if (await fsp.stat(file).then(() => true, () => false)) return file;
  await fsp.mkdir(CACHE, { recursive: true });
  const partial = `${file}.${process.pid}.${Date.now()}.partial.${ext}`;
  await make(partial);
  await fsp.rename(partial, file);
  return file;
}

/** A chord progression with a beat: music-like, steady. */
const MUSIC = (seconds: number) =>
  `aevalsrc='0.3*sin(2*PI*220*t)*(1+0.5*sin(2*PI*0.5*t))+0.2*sin(2*PI*277*t)+0.2*sin(2*PI*330*t)+0.4*sin(2*PI*55*t)*exp(-8*mod(t,0.5))':s=44100:d=${seconds}`;

const SPEECH_TEXT = 'Look at this. It sorts your whole week in one tap, and it costs less than a coffee. Try it today.';

async function speechWav(): Promise<string> {
  return cached(`speech-v1:${SPEECH_TEXT}`, 'wav', async (out) => {
    const { execFile } = await import('node:child_process');
    await new Promise<void>((resolve, reject) => execFile(espeakPath(), ['-w', out, SPEECH_TEXT], (error) => (error ? reject(error) : resolve())));
  });
}

/**
 * A 360x640 demo whose audio measures `lufs` (±0.5) integrated. `loud` demos are pushed into a
 * limiter as a loud master is, so their true peak sits just under 0 dBTP.
 */
export async function demoAtLoudness(kind: 'music' | 'speech', lufs: number, seconds = 6): Promise<string> {
  const source = kind === 'music' ? ['-f', 'lavfi', '-i', MUSIC(seconds)] : ['-stream_loop', '-1', '-i', fileArg(await speechWav())];
  const raw = await cached(`demo-raw-v1:${kind}:${seconds}`, 'wav', async (out) => {
    await runFfmpeg(['-v', 'error', ...source, '-t', String(seconds), '-ac', '2', '-ar', '44100', '-y', fileArg(out)]);
  });
  const measured = (await measureLoudness(raw)).integratedLufs ?? -70;
  const gain = lufs - measured;
  const limiter = lufs > -12 ? ',alimiter=limit=0.97:level=disabled' : '';
  return cached(`demo-v1:${kind}:${lufs}:${seconds}`, 'mp4', async (out) => {
    await runFfmpeg([
      '-v', 'error',
      '-f', 'lavfi', '-i', `testsrc2=s=360x640:r=30:d=${seconds}`,
      '-i', fileArg(raw),
      '-af', `volume=${gain.toFixed(2)}dB${limiter}`,
      '-map', '0:v', '-map', '1:a',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '30', '-pix_fmt', 'yuv420p',
      '-c:a', 'aac', '-b:a', '160k', '-shortest',
      '-y', fileArg(out),
    ]);
  });
}

/** A built-in bed or effect as a file (rendered once per machine and sounds version, in TEST_SOUND_CACHE). */
export async function builtInSoundFile(id: string): Promise<string> {
  const file = path.join(TEST_SOUND_CACHE, `v${BUILT_IN_SOUNDS_VERSION}`, `${id}.m4a`);
  if (await fsp.stat(file).then(() => true, () => false)) return file;
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.${Date.now()}.partial.m4a`;
  await renderBuiltInSound(id, partial);
  await fsp.rename(partial, file);
  return file;
}

/** Where silencedetect finds stretches under `noiseDb` longer than `minS` (start, end), for the whole file. */
export async function silences(file: string, noiseDb = -50, minS = 0.5): Promise<{ startS: number; endS: number | null }[]> {
  const { stderrTail } = await runFfmpeg(['-v', 'info', '-nostats', '-i', fileArg(file), '-map', '0:a:0', '-af', `silencedetect=n=${noiseDb}dB:d=${minS}`, '-f', 'null', '-']);
  const found: { startS: number; endS: number | null }[] = [];
  for (const line of stderrTail.split('\n')) {
    const start = /silence_start: (-?[0-9.]+)/.exec(line);
    if (start) found.push({ startS: Number(start[1]), endS: null });
    const end = /silence_end: ([0-9.]+)/.exec(line);
    if (end && found.length > 0) found[found.length - 1]!.endS = Number(end[1]);
  }
  return found;
}

/** The integrated loudness of a stretch of a file's audio (seconds). */
export async function loudnessBetween(file: string, fromS: number, toS: number): Promise<number | null> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'rs-cut-'));
  try {
    const cut = path.join(dir, 'cut.wav');
    await runFfmpeg(['-v', 'error', '-i', fileArg(file), '-map', '0:a:0', '-af', `atrim=${fromS}:${toS}`, '-y', fileArg(cut)]);
    return (await measureLoudness(cut)).integratedLufs;
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/** The audio stream's codec and duration, as ffprobe reads them. */
export async function audioStreamOf(file: string): Promise<{ codec: string; durationS: number }> {
  const { stdout } = await runFfprobe(['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=codec_name,duration', '-of', 'json', fileArg(file)]);
  const stream = (JSON.parse(stdout) as { streams: { codec_name: string; duration: string }[] }).streams[0]!;
  return { codec: stream.codec_name, durationS: Number(stream.duration) };
}
