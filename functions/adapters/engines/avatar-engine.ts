import type { BlobStore } from '#ports/blob-store';
import type { AvatarEngine } from '#ports/engine';
import type { Engines } from '#ports/engines';
import type { SecretProvider } from './credentials';
import { engineChoice } from './registry';
import { once } from './once';

/** The wiring's blob store, which the local engine reads avatars from and writes its results to. */
export type EngineBlobs = Pick<BlobStore, 'putFile' | 'getToFile'>;

/**
 * The engine that generates within a request: only ever the local one, so the API function does not
 * bundle the hosted adapters (the background worker does).
 */
export function inlineAvatarEngines(options: { blobs?: EngineBlobs } = {}): Pick<Engines, 'inlineAvatar' | 'avatarIsInline'> {
  return {
    inlineAvatar: once(async () => (await import('./local/engine')).createLocalEngine({ blobs: options.blobs })),
    avatarIsInline: engineChoice('avatar') === 'local',
  };
}

/** The configured avatar engine; `falKey` is shared with the other hosted engines of the same wiring. */
export function avatarEngines(options: { falKey: () => SecretProvider; blobs?: EngineBlobs }): Pick<Engines, 'avatar' | 'inlineAvatar' | 'avatarIsInline'> {
  const inline = inlineAvatarEngines(options);
  const hosted = once<AvatarEngine>(async () => (await import('./fal/engine')).falAvatarEngine({ apiKey: options.falKey() }));
  return { ...inline, avatar: () => (engineChoice('avatar') === 'fal' ? hosted() : inline.inlineAvatar()) };
}
