/**
 * The local engine's portrait from a prompt: an illustrated rig drawn to a PNG and stored. Its own
 * module so that the avatars API function, which draws portraits within the request, bundles this and
 * not the reaction renderer, captions and encoder the render function needs.
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AvatarEngine, GeneratedAvatar, GenerationOptions } from '#ports/engine';
import { rigFromPrompt } from '#render';
import { renderAvatarPng } from '#render';
import { checkAborted, guard, storeBlob, withTempDir, type BlobFiles } from './engine-files';

export const LOCAL_ENGINE = 'local';

/** Side of the square portrait made from a prompt. */
export const AVATAR_SIZE = 1024;

export interface PromptAvatarDeps {
  blobs: BlobFiles;
  /** Where temp dirs go (default: the OS temp dir). */
  tmpDir?: string;
}

export async function drawAvatarFromPrompt(deps: PromptAvatarDeps, prompt: string, options: GenerationOptions): Promise<GeneratedAvatar> {
  checkAborted(options.signal);
  const rig = rigFromPrompt(prompt, options.seed);
  const png = await guard(() => renderAvatarPng(rig, AVATAR_SIZE), 'drawing the avatar failed');
  checkAborted(options.signal);
  return withTempDir(deps.tmpDir ?? os.tmpdir(), async (dir) => {
    const file = path.join(dir, 'avatar.png');
    await fsp.writeFile(file, png);
    await storeBlob(deps.blobs, options.outputKey, file, 'image/png');
    return {
      image: { key: options.outputKey, contentType: 'image/png', sizeBytes: png.length },
      width: AVATAR_SIZE,
      height: AVATAR_SIZE,
      seed: options.seed,
      rig,
      engine: LOCAL_ENGINE,
    };
  });
}

/** The local engine as an avatar engine only (no reactions): what an API function draws with. */
export function createLocalAvatarEngine(deps: PromptAvatarDeps): AvatarEngine {
  return { name: LOCAL_ENGINE, avatarFromPrompt: (prompt, options) => drawAvatarFromPrompt(deps, prompt, options) };
}
