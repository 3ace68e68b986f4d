/**
 * The demo normaliser and the caption encoder for suites that are not about rendering. They see the
 * same inputs again and again (one fixture demo, the canonical clip under the same hook), so the real
 * encoders run once per distinct input in a run and every repeat gets a copy of that file. The key is
 * the input files' bytes, the options and the render wing's code (the folder the global setup names:
 * test/support/global/canonical-clip.ts), so nothing stale is ever served. Failures are not kept:
 * a repeat of a refused file is refused by the real tool again.
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DemoMedia } from '#ports/demo-media';
import type { VideoComposer } from '#ports/video-composer';

export const RENDER_MEMO_ENV = 'RS_TEST_RENDER_MEMO';

function memoRoot(): string {
  const dir = process.env[RENDER_MEMO_ENV];
  if (!dir) throw new Error(`${RENDER_MEMO_ENV} is unset: run the tests through jest (npm test), whose global setup names the folder`);
  return dir;
}

async function keyOf(files: string[], options: unknown): Promise<string> {
  const hash = createHash('sha256').update(JSON.stringify(options));
  for (const file of files) hash.update(await readFile(file));
  return hash.digest('hex').slice(0, 24);
}

/** `produce(output)` once per key; later calls copy its output file to `outputPath` and answer what it answered. */
async function memoised<T>(key: string, outputPath: string, produce: (outputPath: string) => Promise<T>): Promise<T> {
  const dir = join(memoRoot(), key);
  if (existsSync(join(dir, 'answer.json'))) {
    await copyFile(join(dir, 'output'), outputPath);
    return JSON.parse(await readFile(join(dir, 'answer.json'), 'utf8')) as T;
  }
  const answer = await produce(outputPath);
  await mkdir(memoRoot(), { recursive: true });
  // Kept aside and renamed into place: another worker reading the key never sees half a file.
  const staging = await mkdtemp(join(memoRoot(), 'staging-'));
  try {
    await copyFile(outputPath, join(staging, 'output'));
    await writeFile(join(staging, 'answer.json'), JSON.stringify(answer ?? null));
    await rename(staging, dir).catch(() => undefined); // another worker kept the same key first
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return answer;
}

export function memoisedDemoMedia(real: DemoMedia): DemoMedia {
  return {
    inspect: (path) => real.inspect(path),
    async normalise(inputPath, outputPath, options) {
      const key = await keyOf([inputPath], { step: 'normalise', intake: options.intake ?? null });
      return memoised(key, outputPath, (out) => real.normalise(inputPath, out, options));
    },
  };
}

export function memoisedComposer(real: VideoComposer): VideoComposer {
  return {
    async captionSegment(input) {
      const key = await keyOf([input.reactionPath], { step: 'caption-segment', caption: input.caption, watermark: input.watermark ?? null });
      return memoised(key, input.outputPath, (outputPath) => real.captionSegment({ ...input, outputPath }));
    },
    join: (input) => real.join(input),
    poster: (input) => real.poster(input),
    defaultPosterTimeS: (segmentDurationS) => real.defaultPosterTimeS(segmentDurationS),
  };
}
