import { mediaAreaPattern, type MediaArea } from '#domain/media-areas';
import { demoCanonicalKey, demoOriginalKey } from '#domain/product';
import { avatarImageKey } from '#domain/avatar';
import { reactionClipKey } from '#domain/reaction';
import { jobObjectKeys } from '#domain/jobs';
import { regenerateReferenceKey } from '#domain/job-execution';
import { videoObjectKeys } from '#domain/video';
import { uploadObjectKey } from '#domain/upload-record';
import { musicAudioKey } from '#domain/music';
import { sampleDemoKey } from '#domain/sample-product';
import { stockAvatarImageKey } from '#domain/stock-avatars';
import { builtInSoundKey } from '#domain/sound';

/** An IAM resource pattern as S3 reads it: `*` matches any run of characters, `/` included. */
const matches = (pattern: string, key: string) => new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`).test(key);

const KEYS_BY_AREA: Record<MediaArea, string[]> = {
  products: [demoOriginalKey(7, 12), demoCanonicalKey(7, 12)],
  avatars: [avatarImageKey(7, 3, 'png'), avatarImageKey(7, 3, 'jpg')],
  reactions: [reactionClipKey(7, 41)],
  jobs: [...Object.values(jobObjectKeys(7, 90, 2)), regenerateReferenceKey(7, 90, 3, 'nonce')],
  videos: Object.values(videoObjectKeys(7, 55)),
  uploads: [uploadObjectKey(7, '0b4f6a4e-8a52-4d39-9a5e-2f1b7d3f0c11')],
  music: [musicAudioKey(7, 21)],
  samples: [sampleDemoKey('2c668f6f44758a1e'), stockAvatarImageKey('maya', '0123456789abcdef')],
  sounds: [builtInSoundKey('sunny-pop', 2), builtInSoundKey('whoosh', 2)],
};

describe('media areas (the unit of a write grant on AWS)', () => {
  test.each(Object.keys(KEYS_BY_AREA) as MediaArea[])('the %s pattern covers every key its key functions make, of any account', (area) => {
    for (const key of KEYS_BY_AREA[area]) expect({ key, covered: matches(mediaAreaPattern(area), key) }).toEqual({ key, covered: true });
  });

  test('no area covers another area\'s keys', () => {
    const areas = Object.keys(KEYS_BY_AREA) as MediaArea[];
    for (const area of areas) {
      for (const other of areas.filter((a) => a !== area)) {
        for (const key of KEYS_BY_AREA[other]) expect({ area, key, covered: matches(mediaAreaPattern(area), key) }).toEqual({ area, key, covered: false });
      }
    }
  });

  test('the pattern is the key function\'s folder with stars for the ids', () => {
    expect(mediaAreaPattern('products')).toBe('accounts/*/products/*/*');
  });
});
