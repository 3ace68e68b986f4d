/** Settings read from a Lambda function's environment: the media distribution is all or nothing. */
import { MEDIA_CDN_ENV, settingsFromEnv } from '#functions/config';

const BASE = { TABLE_NAME: 'table', BUCKET_NAME: 'bucket' };
const CDN = {
  [MEDIA_CDN_ENV.domain]: 'd111111abcdef8.cloudfront.net',
  [MEDIA_CDN_ENV.keyPairId]: 'K2JCJMDEHXQW5F',
  [MEDIA_CDN_ENV.privateKeySecret]: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:media-key',
};

test('without the distribution variables, links stay S3 presigned ones (the local stack)', () => {
  expect(settingsFromEnv(BASE).mediaCdn).toBeUndefined();
});

test('with all three, playback links go through the distribution', () => {
  expect(settingsFromEnv({ ...BASE, ...CDN }).mediaCdn).toEqual({
    domain: 'd111111abcdef8.cloudfront.net',
    keyPairId: 'K2JCJMDEHXQW5F',
    privateKeySecret: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:media-key',
  });
});

test('some but not all of them is a configuration error that names the three', () => {
  const { [MEDIA_CDN_ENV.keyPairId]: _, ...partial } = CDN;
  expect(() => settingsFromEnv({ ...BASE, ...partial })).toThrow('set all of MEDIA_CDN_DOMAIN, MEDIA_CDN_KEY_PAIR_ID, MEDIA_CDN_PRIVATE_KEY_SECRET or none');
});
