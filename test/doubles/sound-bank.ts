/**
 * A SoundBank for tests: a built-in bed's or effect's file is a short tone made with ffmpeg and put in
 * the blob store the first time it is asked for (as the real bank renders it once), not the render
 * wing's synthesis. The test stacks use it unless they render for real (as the engine double stands in
 * for the engine).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtInTrack, isBuiltInSoundId } from '#domain/sound';
import { fileArg, runFfmpeg } from '#render';
import type { BlobStore } from '#ports/blob-store';
import type { SoundBank } from '#ports/sound-bank';

export class GeneratedSoundBank implements SoundBank {
  /** The ids asked for, in order. */
  readonly asked: string[] = [];

  constructor(private readonly blobs: BlobStore) {}

  async builtInKey(id: string): Promise<string> {
    this.asked.push(id);
    if (!isBuiltInSoundId(id)) throw new Error(`no built-in sound ${id}`);
    // A bed's tone follows its tempo; an effect's is one pitch.
    const hz = (builtInTrack(id)?.bpm ?? 110) * 4;
    const key = `sounds/test/${id}.m4a`;
    if ((await this.blobs.sizeOf(key)) !== undefined) return key;
    const dir = await mkdtemp(join(tmpdir(), 'rs-sound-bank-'));
    try {
      const path = join(dir, `${id}.m4a`);
      await runFfmpeg(['-v', 'error', '-f', 'lavfi', '-i', `sine=f=${hz}:r=48000:d=2`, '-ac', '2', '-c:a', 'aac', '-b:a', '64k', '-f', 'mp4', '-y', fileArg(path)]);
      await this.blobs.putFile(key, path, 'audio/mp4');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    return key;
  }
}
