import type { BlobStore } from '#ports/blob-store';
import type { AvatarEngine } from '#ports/engine';
import type { Engines } from '#ports/engines';
import type { SecretProvider } from './credentials';
import { engineChoice } from './registry';
import { once } from './once';

/**
 * The wiring's blob store, which the engines read avatars from and write their results to (the hosted
 * ones also hand their inputs over as presigned URLs).
 */
export type EngineBlobs = Pick<BlobStore, 'putFile' | 'getToFile' | 'playbackUrl'>;

/**
 * The engine that generates within a request: only ever the local one, so the API function does not
 * bundle the hosted adapters (the background worker does).
 */
export function inlineAvatarEngines(options: { blobs: EngineBlobs }): Pick<Engines, 'inlineAvatar' | 'avatarIsInline'> {
  return {
    inlineAvatar: once(async () => (await import('./local/prompt-avatar')).createLocalAvatarEngine({ blobs: options.blobs })),
    avatarIsInline: engineChoice('avatar') === 'local',
  };
}

/** The configured avatar engine; `falKey` is shared with the other hosted engines of the same wiring. */
export function avatarEngines(options: { falKey: () => SecretProvider; blobs: EngineBlobs }): Pick<Engines, 'avatar' | 'inlineAvatar' | 'avatarIsInline'> {
  const inline = inlineAvatarEngines(options);
  const hosted = once<AvatarEngine>(async () => (await import('./fal/engine')).falAvatarEngine({ apiKey: options.falKey(), blobs: options.blobs }));
  return { ...inline, avatar: (request) => (engineChoice('avatar') === 'fal' && !request?.offline ? hosted() : inline.inlineAvatar()) };
}
