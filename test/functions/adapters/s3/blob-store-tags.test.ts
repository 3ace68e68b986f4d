/**
 * Object tags on the way in (a finished video's retention class, which lifecycle selects on): a PUT
 * carries them as `x-amz-tagging`, a COPY replaces the source's with them or keeps the source's when
 * none are given. Against s3rver, the local stack's store, a tagged PUT and COPY are taken as any other.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CopyObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { S3BlobStore } from '#adapters/s3/blob-store';
import { createS3Client } from '#adapters/aws-clients';
import { DEFAULT_REGION } from '#functions/config';
import { ensureBucket } from '#local/provision';
import { sharedEndpoints, uniqueName } from '#test-support/services';

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rs-tags-'));
  file = join(dir, 'video.mp4');
  writeFileSync(file, Buffer.alloc(1024, 3));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('tags as sent to S3', () => {
  const s3 = mockClient(S3Client);
  beforeEach(() => s3.reset());
  afterAll(() => s3.restore());
  const store = () => new S3BlobStore(new S3Client({ region: 'us-east-1' }), 'bucket');

  test('a tagged putFile sends them URL-encoded as Tagging; an untagged one sends none', async () => {
    s3.on(PutObjectCommand).resolves({});
    await store().putFile('accounts/1/videos/2/video.mp4', file, 'video/mp4', { tags: { retention: 'days-30' } });
    await store().putFile('accounts/1/jobs/2/clip.mp4', file, 'video/mp4');
    const [tagged, plain] = s3.commandCalls(PutObjectCommand).map((c) => c.args[0].input);
    expect(tagged).toMatchObject({ Key: 'accounts/1/videos/2/video.mp4', Tagging: 'retention=days-30' });
    expect(plain!.Tagging).toBeUndefined();
  });

  test("a tagged copy replaces the source's tags; an untagged one leaves S3 to copy them", async () => {
    s3.on(CopyObjectCommand).resolves({});
    await store().copy('accounts/1/jobs/2/poster-0.jpg', 'accounts/1/videos/2/poster.jpg', { tags: { retention: 'days-365' } });
    await store().copy('a.jpg', 'b.jpg');
    const [tagged, plain] = s3.commandCalls(CopyObjectCommand).map((c) => c.args[0].input);
    expect(tagged).toMatchObject({ Tagging: 'retention=days-365', TaggingDirective: 'REPLACE' });
    expect(plain!.Tagging).toBeUndefined();
    expect(plain!.TaggingDirective).toBeUndefined();
  });
});

describe('tags against s3rver (the local stack)', () => {
  test('a tagged put and a tagged copy store the bytes as an untagged one would', async () => {
    const { s3Endpoint } = sharedEndpoints();
    const bucket = uniqueName('tags');
    await ensureBucket(s3Endpoint, bucket);
    const client = createS3Client({ region: DEFAULT_REGION, s3Endpoint });
    try {
      const blobs = new S3BlobStore(client, bucket);
      await blobs.putFile('v/video.mp4', file, 'video/mp4', { tags: { retention: 'days-30' } });
      await blobs.copy('v/video.mp4', 'v/copy.mp4', { tags: { retention: 'days-30' } });
      await blobs.getToFile('v/copy.mp4', join(dir, 'back.mp4'));
      expect(readFileSync(join(dir, 'back.mp4'))).toEqual(readFileSync(file));
      expect(await blobs.sizeOf('v/video.mp4')).toBe(1024);
    } finally {
      client.destroy();
    }
  });
});
