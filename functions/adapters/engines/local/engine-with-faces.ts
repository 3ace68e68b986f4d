import { createLocalEngine, type LocalEngine, type LocalEngineDeps } from './engine';

/**
 * The engine with the photo side (`./face`: photo avatars, upload rigs, motion from reference clips)
 * wired in. Its own module, so that avatar generation, which never animates, does not bundle it.
 * Importing `./face` loads no tfjs; the face model loads on the first detection.
 */
export async function createLocalEngineWithFaces(deps: Omit<LocalEngineDeps, 'photo' | 'motion'>): Promise<LocalEngine> {
  const face = await import('./face');
  return createLocalEngine({ ...deps, photo: face.photoRenderer, motion: face.motionSource });
}
