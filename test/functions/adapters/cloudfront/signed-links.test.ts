/**
 * Playback links through CloudFront: signed with the distribution's key so that CloudFront (which
 * holds only the public key) accepts them until their own expiry, and served by the blob store in
 * place of S3 presigned URLs, for as long as a scheduled post needs.
 */
import { createVerify, generateKeyPairSync } from 'node:crypto';
import { S3Client } from '@aws-sdk/client-s3';
import { CloudFrontSignedLinks } from '#adapters/cloudfront/signed-links';
import { S3BlobStore } from '#adapters/s3/blob-store';
const { floor } = Math;

const { privateKey, publicKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const DOMAIN = 'd111111abcdef8.cloudfront.net';
const NOW = new Date('2026-11-25T12:00:00Z');

/** CloudFront's canned policy for a URL and an expiry, and its URL-safe base64 (+ → -, = → _, / → ~). */
const cannedPolicy = (url: string, epoch: number) => JSON.stringify({ Statement: [{ Resource: url, Condition: { DateLessThan: { 'AWS:EpochTime': epoch } } }] });
const fromCloudFrontBase64 = (text: string) => Buffer.from(text.replace(/-/g, '+').replace(/_/g, '=').replace(/~/g, '/'), 'base64');

function signer(reads = { count: 0 }) {
  return new CloudFrontSignedLinks({
    domain: DOMAIN,
    keyPairId: 'K2JCJMDEHXQW5F',
    privateKey: async () => {
      reads.count += 1;
      return privateKey;
    },
  });
}

test('a link to the object on the distribution that the public key verifies, with its expiry and key pair id', async () => {
  const expiresAt = new Date(NOW.getTime() + 10 * 86_400_000);
  const link = new URL(await signer().sign('videos/acct_1/vid 1.mp4', expiresAt));
  expect(link.origin).toBe(`https://${DOMAIN}`);
  expect(link.pathname).toBe('/videos/acct_1/vid%201.mp4');
  expect(link.searchParams.get('Key-Pair-Id')).toBe('K2JCJMDEHXQW5F');
  const epoch = Number(link.searchParams.get('Expires'));
  expect(epoch).toBe(floor(expiresAt.getTime() / 1000));

  const resource = `${link.origin}${link.pathname}`;
  const verify = (policyUrl: string, until: number) =>
    createVerify('RSA-SHA1').update(cannedPolicy(policyUrl, until)).verify(publicKey, fromCloudFrontBase64(link.searchParams.get('Signature')!));
  expect(verify(resource, epoch)).toBe(true);
  // The signature binds the object and the expiry: neither can be changed by the holder.
  expect(verify(`${link.origin}/videos/acct_2/vid%201.mp4`, epoch)).toBe(false);
  expect(verify(resource, epoch + 86_400)).toBe(false);
});

test('a query string is inside the signed URL: the policy covers it, so it can be neither changed nor dropped', async () => {
  const expiresAt = new Date(NOW.getTime() + 86_400_000);
  const disposition = 'attachment; filename="reaction-video-7.mp4"';
  const link = new URL(await signer().sign('accounts/1/videos/7/video.mp4', expiresAt, { 'response-content-disposition': disposition }));
  expect(link.searchParams.get('response-content-disposition')).toBe(disposition);
  expect(link.searchParams.get('Key-Pair-Id')).toBe('K2JCJMDEHXQW5F');
  const epoch = Number(link.searchParams.get('Expires'));
  const signature = fromCloudFrontBase64(link.searchParams.get('Signature')!);
  const verify = (policyUrl: string) => createVerify('RSA-SHA1').update(cannedPolicy(policyUrl, epoch)).verify(publicKey, signature);

  // The signed resource is the URL as handed out, less CloudFront's own parameters that follow it.
  const resource = link.href.slice(0, link.href.indexOf('&Expires='));
  expect(resource).toBe(`https://${DOMAIN}/accounts/1/videos/7/video.mp4?response-content-disposition=${encodeURIComponent(disposition)}`);
  expect(verify(resource)).toBe(true);
  expect(verify(`${link.origin}${link.pathname}`)).toBe(false);
  expect(verify(`${link.origin}${link.pathname}?response-content-disposition=${encodeURIComponent('inline')}`)).toBe(false);
});

test('reads the private key once per instance, and again after a failed read', async () => {
  const reads = { count: 0 };
  const links = signer(reads);
  await links.sign('a.mp4', NOW);
  await links.sign('b.mp4', NOW);
  expect(reads.count).toBe(1);

  let calls = 0;
  const flaky = new CloudFrontSignedLinks({
    domain: DOMAIN,
    keyPairId: 'K',
    privateKey: async () => {
      calls += 1;
      if (calls === 1) throw new Error('secrets manager unavailable');
      return privateKey;
    },
  });
  await expect(flaky.sign('a.mp4', NOW)).rejects.toThrow('secrets manager unavailable');
  await expect(flaky.sign('a.mp4', NOW)).resolves.toContain(DOMAIN);
});

describe('the blob store with CloudFront links', () => {
  const client = new S3Client({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } });
  const store = new S3BlobStore(client, 'media', signer());

  test("hands out the distribution's link instead of a presigned S3 URL", async () => {
    const link = await store.playbackUrl('posters/acct_1/v.jpg', NOW);
    expect(new URL(link.url).host).toBe(DOMAIN);
    expect(link.expiresAt).toBe('2026-11-26T12:00:00.000Z');
  });

  test('a download link is the playback link with the attachment disposition signed in; a presigned one carries it too', async () => {
    const download = await store.downloadUrl('accounts/1/videos/7/video.mp4', 'reaction-video-7.mp4', NOW);
    const url = new URL(download.url);
    expect(url.host).toBe(DOMAIN);
    expect(url.searchParams.get('response-content-disposition')).toBe('attachment; filename="reaction-video-7.mp4"');
    expect(download.expiresAt).toBe((await store.playbackUrl('accounts/1/videos/7/video.mp4', NOW)).expiresAt);
    expect(new URL((await store.playbackUrl('accounts/1/videos/7/video.mp4', NOW)).url).searchParams.has('response-content-disposition')).toBe(false);

    const presigned = new URL((await new S3BlobStore(client, 'media').downloadUrl('v.mp4', 'a "b"\u00e9.mp4', NOW)).url);
    expect(presigned.searchParams.get('response-content-disposition')).toBe('attachment; filename="a b_.mp4"');
  });

  test('a scheduled post gets links past the 7 days SigV4 allows (up to a year and a day); S3 alone stays capped at 7 days', async () => {
    const thirtyDays = 30 * 86_400;
    expect((await store.playbackUrl('videos/v.mp4', NOW, thirtyDays)).expiresAt).toBe('2026-12-25T12:00:00.000Z');
    expect((await store.playbackUrl('videos/v.mp4', NOW, 400 * 86_400)).expiresAt).toBe(new Date(NOW.getTime() + 367 * 86_400_000).toISOString());
    const presigned = await new S3BlobStore(client, 'media').playbackUrl('videos/v.mp4', NOW, thirtyDays);
    expect(presigned.expiresAt).toBe('2026-12-02T12:00:00.000Z');
    expect(new URL(presigned.url).searchParams.get('X-Amz-Expires')).toBe(String(7 * 86_400));
  });
});
