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

describe('the variables every function reads, checked together at cold start', () => {
  test('a missing table or bucket, or an empty one, is named', () => {
    expect(() => settingsFromEnv({ BUCKET_NAME: 'bucket' })).toThrow('environment variable TABLE_NAME is not set');
    expect(() => settingsFromEnv({ TABLE_NAME: 'table', BUCKET_NAME: '' })).toThrow('environment variable BUCKET_NAME is not set');
  });

  test('a malformed number or URL is named with its value', () => {
    expect(() => settingsFromEnv({ ...BASE, RATE_LIMIT_PER_MINUTE: '12x' })).toThrow('environment variable RATE_LIMIT_PER_MINUTE must be a positive integer, not 12x');
    expect(() => settingsFromEnv({ ...BASE, PROVIDER_A_BASE_URL: 'not a url' })).toThrow(/environment variable PROVIDER_A_BASE_URL .*, not not a url/);
  });

  test('set values are read; unset ones fall back to the contract', () => {
    expect(settingsFromEnv({ ...BASE, RATE_LIMIT_PER_MINUTE: '', INLINE_UPLOAD_MAX_BYTES: '4000000', AWS_REGION: 'eu-west-1' })).toMatchObject({
      region: 'eu-west-1',
      tableName: 'table',
      bucketName: 'bucket',
      rateLimitPerMinute: 120,
      inlineUploadMaxBytes: 4_000_000,
    });
  });
});
