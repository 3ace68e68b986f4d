/**
 * The canonical reaction clip that the engine double serves (test/doubles/canonical-clip-engine.ts):
 * rendered by the real local engine once, then kept in node_modules/.cache under a hash of the code
 * that renders it, so a run renders it only when that code changed. Names, the same way, the folder
 * where the memoised demo normaliser and caption encoder keep their files (test/doubles/memoised-media.ts).
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { createLocalEngine } from '#adapters/engines/local/engine';
import type { BlobFiles } from '#adapters/engines/local/engine-files';
import { CANONICAL_CLIP_ENV, type CanonicalClip } from '#test-doubles/canonical-clip-engine';
import { RENDER_MEMO_ENV } from '#test-doubles/memoised-media';

const ROOT = resolve(__dirname, '..', '..', '..');
const RENDERING_CODE = ['functions/adapters/engines/local', 'functions/render', 'functions/ports/engine.ts'];

async function filesUnder(path: string): Promise<string[]> {
  const full = join(ROOT, path);
  if ((await stat(full)).isFile()) return [full];
  const entries = await readdir(full, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** What the memoised demo normaliser and caption encoder depend on (test/doubles/memoised-media.ts). */
const MEDIA_CODE = ['functions/render', 'functions/domain', 'functions/ports'];

async function codeHash(paths: string[]): Promise<string> {
  const hash = createHash('sha256');
  const files = (await Promise.all(paths.map(filesUnder))).flat().sort();
  for (const file of files) hash.update(relative(ROOT, file)).update(await readFile(file));
  return hash.digest('hex').slice(0, 16);
}

/** Blob keys as files under one folder: all the engine needs to render outside a stack. */
function folderBlobs(dir: string): BlobFiles {
  return {
    async putFile(key, filePath) {
      await mkdir(join(dir, key, '..'), { recursive: true });
      await copyFile(filePath, join(dir, key));
    },
    getToFile: (key, filePath) => copyFile(join(dir, key), filePath),
  };
}

async function render(into: string): Promise<void> {
  const engine = createLocalEngine({ blobs: folderBlobs(into) });
  const avatar = await engine.avatarFromPrompt('a friendly woman with curly hair', { seed: 7, outputKey: 'avatar.png' });
  const ref = { id: 1, source: 'prompt' as const, imageKey: avatar.image.key, width: avatar.width, height: avatar.height, rig: avatar.rig };
  const clip = await engine.reactionFromPrompt(ref, 'shocked by the price', { seed: 7, outputKey: 'reaction.mp4', caption: null, posterKey: 'poster.jpg' });
  const description: CanonicalClip = { video: join(into, 'reaction.mp4'), poster: join(into, 'poster.jpg'), durationS: clip.durationS, emotion: clip.emotion, faceBox: clip.faceBox ?? null };
  await writeFile(join(into, 'clip.json'), JSON.stringify(description));
}

/** Renders the clip unless this code already did, and hands its description to the workers. */
export async function prepareCanonicalClip(): Promise<void> {
  const cacheRoot = join(ROOT, 'node_modules', '.cache', 'reaction-studio-tests');
  const dir = join(cacheRoot, `canonical-clip-${await codeHash(RENDERING_CODE)}`);
  process.env[RENDER_MEMO_ENV] = join(cacheRoot, `media-memo-${await codeHash(MEDIA_CODE)}`);
  if (!existsSync(join(dir, 'clip.json'))) {
    await mkdir(cacheRoot, { recursive: true });
    // Rendered aside and renamed into place: a run killed halfway leaves no clip that looks whole.
    const staging = await mkdtemp(join(cacheRoot, 'staging-'));
    try {
      await render(staging);
      const text = (await readFile(join(staging, 'clip.json'), 'utf8')).replaceAll(staging, dir);
      await writeFile(join(staging, 'clip.json'), text);
      await rename(staging, dir).catch(async (error) => {
        // Another run renamed the same clip in first: theirs is as good.
        if (!existsSync(join(dir, 'clip.json'))) throw error;
      });
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }
  process.env[CANONICAL_CLIP_ENV] = join(dir, 'clip.json');
}
