/**
 * The local S3 shows a write whole or not at all, as S3 does (lib/local/s3rver-atomic.cjs): a reader
 * that arrives while a PUT's body is still arriving gets the old object, or none, never a part of the
 * new one; a PUT that breaks off leaves what was there; a copy appears whole; the parts a killed
 * server left are swept when it starts again.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CopyObjectCommand, CreateBucketCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, NotFound, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { startS3Local } from '#local/s3-local';
import { sharedEndpoints, uniqueName } from '#test-support/services';

let s3: S3Client;
let endpoint: string;
const bucket = uniqueName('atomic');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  endpoint = sharedEndpoints().s3Endpoint;
  s3 = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
});

afterAll(() => s3.destroy());

/** A PUT whose body arrives in two halves with a pause between, so a reader can come in the middle. */
function slowPut(key: string, body: Buffer, options: { breakOff?: boolean } = {}) {
  let midway!: () => void;
  const halfSent = new Promise<void>((resolve) => (midway = resolve));
  let finish!: () => void;
  const resume = new Promise<void>((resolve) => (finish = resolve));
  const answered = new Promise<number>((resolve, reject) => {
    const req = request(`${endpoint}/${bucket}/${key}`, { method: 'PUT', headers: { 'content-length': body.length, 'content-type': 'application/octet-stream' } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', (error) => (options.breakOff ? resolve(-1) : reject(error)));
    const half = body.length >> 1;
    req.write(body.subarray(0, half), () => {
      midway();
      void resume.then(() => (options.breakOff ? req.destroy() : req.end(body.subarray(half))));
    });
  });
  return { halfSent, finish, answered };
}

async function bytesOf(key: string): Promise<Buffer | null> {
  try {
    const answer = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return Buffer.from(await answer.Body!.transformToByteArray());
  } catch (error) {
    if (error instanceof NoSuchKey) return null;
    throw error;
  }
}

async function sizeOf(key: string): Promise<number | null> {
  try {
    return (await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }))).ContentLength ?? null;
  } catch (error) {
    if (error instanceof NotFound) return null;
    throw error;
  }
}

const bodyOf = (size: number, fill: number) => Buffer.alloc(size, fill);

test('a new object is absent to HEAD, GET and listings until its whole body has arrived, then whole', async () => {
  const body = bodyOf(1 << 20, 7);
  const put = slowPut('fresh/clip.mp4', body);
  await put.halfSent;
  await sleep(200);
  expect(await sizeOf('fresh/clip.mp4')).toBeNull();
  expect(await bytesOf('fresh/clip.mp4')).toBeNull();
  expect((await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'fresh/' }))).KeyCount).toBe(0);
  put.finish();
  expect(await put.answered).toBe(200);
  expect(await sizeOf('fresh/clip.mp4')).toBe(body.length);
  expect((await bytesOf('fresh/clip.mp4'))!.equals(body)).toBe(true);
});

test('an overwrite in progress leaves readers the old object, whole, until it is done', async () => {
  const old = bodyOf(300_000, 1);
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'over/clip.mp4', Body: old }));
  const replacement = bodyOf(1 << 20, 2);
  const put = slowPut('over/clip.mp4', replacement);
  await put.halfSent;
  await sleep(200);
  expect((await bytesOf('over/clip.mp4'))!.equals(old)).toBe(true);
  put.finish();
  expect(await put.answered).toBe(200);
  expect((await bytesOf('over/clip.mp4'))!.equals(replacement)).toBe(true);
});

test('a PUT that breaks off half-way leaves the object as it was and nothing listed beside it', async () => {
  const old = bodyOf(1000, 3);
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'broken/a.bin', Body: old }));
  const put = slowPut('broken/a.bin', bodyOf(1 << 20, 4), { breakOff: true });
  await put.halfSent;
  await sleep(100);
  put.finish();
  await put.answered;
  await sleep(200);
  expect((await bytesOf('broken/a.bin'))!.equals(old)).toBe(true);
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'broken/' }));
  expect(listed.Contents?.map((o) => [o.Key, o.Size])).toEqual([['broken/a.bin', 1000]]);
});

test('a copy appears whole, with the type and ETag of its source, and can replace its metadata', async () => {
  const body = bodyOf(50_000, 5);
  const put = await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'copy/src.bin', Body: body, ContentType: 'video/mp4' }));
  await s3.send(new CopyObjectCommand({ Bucket: bucket, Key: 'copy/dst.bin', CopySource: `${bucket}/copy/src.bin` }));
  const copied = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: 'copy/dst.bin' }));
  expect([copied.ContentType, copied.ETag, copied.ContentLength]).toEqual(['video/mp4', put.ETag, body.length]);
  await s3.send(new CopyObjectCommand({ Bucket: bucket, Key: 'copy/typed.bin', CopySource: `${bucket}/copy/src.bin`, MetadataDirective: 'REPLACE', ContentType: 'image/jpeg' }));
  expect((await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: 'copy/typed.bin' }))).ContentType).toBe('image/jpeg');
  expect((await bytesOf('copy/typed.bin'))!.equals(body)).toBe(true);
});

test('parts of writes a killed server left behind are removed when it starts again; objects stay', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rs-s3-sweep-'));
  try {
    const folder = join(dir, 'bucket', 'media');
    mkdirSync(folder, { recursive: true });
    const partial = join(folder, `clip.mp4._S3rver_partial-${randomUUID()}`);
    const object = join(folder, 'clip.mp4._S3rver_object');
    writeFileSync(partial, 'half');
    writeFileSync(object, 'whole');
    const { child } = await startS3Local({ directory: dir });
    await child.stop();
    expect([existsSync(partial), existsSync(object)]).toEqual([false, true]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
