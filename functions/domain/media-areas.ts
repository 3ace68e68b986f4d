/**
 * The folders of the media bucket, one per kind of record, each from that record's key function. A
 * function that writes or deletes media declares the areas it touches (FunctionNeeds.writes), and
 * its grants on AWS are scoped to them.
 */
import { productObjectPrefix } from './product';
import { avatarObjectPrefix } from './avatar';
import { reactionObjectPrefix } from './reaction';
import { jobObjectPrefix } from './jobs';
import { videoObjectPrefix } from './video';
import { uploadObjectKey } from './upload-record';
import { musicObjectPrefix } from './music';
import { SAMPLES_PREFIX } from './sample-product';
import { BUILT_IN_SOUNDS_PREFIX } from './sound';

const MEDIA_AREAS = {
  products: productObjectPrefix,
  avatars: avatarObjectPrefix,
  reactions: reactionObjectPrefix,
  jobs: jobObjectPrefix,
  videos: videoObjectPrefix,
  music: musicObjectPrefix,
  // What the project makes once per stack and every account shares: the sample product's clip, the stock avatars' portraits.
  samples: () => SAMPLES_PREFIX,
  // The built-in sound beds and stings, rendered by the first job or music request that needs one.
  sounds: () => BUILT_IN_SOUNDS_PREFIX,
  // Direct uploads: the uploads function signs forms that put here; the functions that take an upload copy it out and delete it.
  uploads: uploadObjectKey,
} as const;

export type MediaArea = keyof typeof MEDIA_AREAS;

/** Every key the area's function makes, for any account and record: `accounts/<*>/products/<*>/<*>` with bare stars. */
export function mediaAreaPattern(area: MediaArea): string {
  // The key functions take ids; a star in their place gives the pattern of every key they make.
  const star = '*' as never;
  const made = MEDIA_AREAS[area](star, star);
  return made.endsWith('/') ? `${made}*` : made;
}
