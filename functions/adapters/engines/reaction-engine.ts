import type { Engines } from '#ports/engines';
import type { EngineBlobs } from './avatar-engine';
import type { SecretProvider } from './credentials';
import { engineChoice } from './registry';
import { once } from './once';

/** The configured reaction engine; `falKey` is shared with the other hosted engines of the same wiring. */
export function reactionEngines(options: { falKey: () => SecretProvider; blobs: EngineBlobs }): Pick<Engines, 'reaction'> {
  // Reactions animate photos and follow reference clips: the face module (tfjs) comes along only here.
  const local = once(async () => (await import('./local/engine-with-faces')).createLocalEngineWithFaces({ blobs: options.blobs }));
  const hosted = once(async () => (await import('./fal/engine')).falReactionEngine({ apiKey: options.falKey(), blobs: options.blobs }));
  return {
    reaction: (request) => (engineChoice('reaction') === 'fal' && !request?.offline ? hosted() : local()),
  };
}
