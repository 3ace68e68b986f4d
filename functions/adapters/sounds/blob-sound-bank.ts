/**
 * The built-in sounds in the blob store: rendered (render/sound) the first time one is asked for and
 * stored under a key naming the sounds' version, so every later job, on any instance, downloads the
 * stored file. Optionally a local directory caches renders across stacks on one machine (tests).
 */
import { randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BlobStore } from '#ports/blob-store';
import type { SoundBank } from '#ports/sound-bank';
import { builtInSoundKey, isBuiltInSoundId } from '#domain/sound';
import { BUILT_IN_SOUNDS_VERSION, renderBuiltInSound } from '#render';

export class BlobSoundBank implements SoundBank {
  /** One render per sound per process, however many jobs ask at once. */
  private readonly rendering = new Map<string, Promise<string>>();

  constructor(
    private readonly blobs: BlobStore,
    private readonly options: { cacheDir?: string } = {},
  ) {}

  async builtInKey(id: string): Promise<string> {
    if (!isBuiltInSoundId(id)) throw new Error(`no built-in sound "${id}"`);
    const key = builtInSoundKey(id, BUILT_IN_SOUNDS_VERSION);
    if ((await this.blobs.sizeOf(key)) !== undefined) return key;
    let pending = this.rendering.get(id);
    if (!pending) {
      pending = this.store(id, key).finally(() => this.rendering.delete(id));
      this.rendering.set(id, pending);
    }
    return pending;
  }

  private async store(id: string, key: string): Promise<string> {
    const cached = this.options.cacheDir ? join(this.options.cacheDir, `v${BUILT_IN_SOUNDS_VERSION}`, `${id}.m4a`) : null;
    if (cached && (await fsp.stat(cached).then(() => true, () => false))) {
      await this.blobs.putFile(key, cached, 'audio/mp4');
      return key;
    }
    const dir = await fsp.mkdtemp(join(tmpdir(), 'rs-sound-'));
    try {
      const file = join(dir, `${id}.m4a`);
      await renderBuiltInSound(id, file);
      await this.blobs.putFile(key, file, 'audio/mp4');
      if (cached) {
        await fsp.mkdir(join(cached, '..'), { recursive: true });
        const partial = `${cached}.${randomUUID()}`;
        await fsp.copyFile(file, partial);
        await fsp.rename(partial, cached);
      }
      return key;
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  }
}
