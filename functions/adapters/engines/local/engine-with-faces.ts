import { motionSource, photoRenderer } from '#render';
import { createLocalEngine, type LocalEngine, type LocalEngineDeps } from './engine';

/**
 * The engine with the photo side (the render wing's `face`: photo avatars, upload rigs, motion from
 * reference clips) wired in. Its own module, so that avatar generation, which never animates, does not
 * bundle it. Importing the face code loads no tfjs; the face model loads on the first detection.
 */
export async function createLocalEngineWithFaces(deps: Omit<LocalEngineDeps, 'photo' | 'motion'>): Promise<LocalEngine> {
  return createLocalEngine({ ...deps, photo: photoRenderer, motion: motionSource });
}
