/** Storing a file survives a dropped connection: the upload is sent again from the file, not lost as a 500. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { S3BlobStore } from '#adapters/s3/blob-store';

const s3 = mockClient(S3Client);
let dir: string;
let file: string;

beforeEach(() => {
  s3.reset();
  dir = mkdtempSync(join(tmpdir(), 'rs-put-'));
  file = join(dir, 'clip.m4a');
  writeFileSync(file, Buffer.alloc(2048, 7));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const reset = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
const store = () => new S3BlobStore(new S3Client({ region: 'us-east-1' }), 'bucket');

test('a reset connection is retried with a fresh stream of the same file', async () => {
  s3.on(PutObjectCommand).rejectsOnce(reset()).resolves({});
  await store().putFile('music/1/t1.m4a', file, 'audio/mp4');
  const calls = s3.commandCalls(PutObjectCommand);
  expect(calls).toHaveLength(2);
  expect(calls[0]!.args[0].input.Body).not.toBe(calls[1]!.args[0].input.Body);
  expect(calls[1]!.args[0].input).toMatchObject({ Bucket: 'bucket', Key: 'music/1/t1.m4a', ContentLength: 2048, ContentType: 'audio/mp4' });
});

test('a refusal (4xx) is not retried: it is the answer', async () => {
  s3.on(PutObjectCommand).rejects(Object.assign(new Error('Access Denied'), { name: 'AccessDenied', $metadata: { httpStatusCode: 403 } }));
  await expect(store().putFile('music/1/t1.m4a', file, 'audio/mp4')).rejects.toThrow('Access Denied');
  expect(s3.commandCalls(PutObjectCommand)).toHaveLength(1);
});

test('S3 saying the body did not arrive whole (400 IncompleteBody, RequestTimeout) is sent again; another 400 is the answer', async () => {
  const status400 = (name: string) => Object.assign(new Error(name), { name, $metadata: { httpStatusCode: 400 } });
  s3.on(PutObjectCommand).rejectsOnce(status400('IncompleteBody')).rejectsOnce(status400('RequestTimeout')).resolves({});
  await store().putFile('music/1/t1.m4a', file, 'audio/mp4');
  expect(s3.commandCalls(PutObjectCommand)).toHaveLength(3);
  s3.reset();
  s3.on(PutObjectCommand).rejects(status400('InvalidArgument'));
  await expect(store().putFile('music/1/t1.m4a', file, 'audio/mp4')).rejects.toThrow('InvalidArgument');
  expect(s3.commandCalls(PutObjectCommand)).toHaveLength(1);
});

test('a failure with no answer at all, whatever its code, is sent again', async () => {
  s3.on(PutObjectCommand).rejectsOnce(Object.assign(new Error('premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' })).resolves({});
  await store().putFile('music/1/t1.m4a', file, 'audio/mp4');
  expect(s3.commandCalls(PutObjectCommand)).toHaveLength(2);
});

test('five failed attempts give up with the last error', async () => {
  s3.on(PutObjectCommand).rejects(reset());
  await expect(store().putFile('music/1/t1.m4a', file, 'audio/mp4')).rejects.toThrow('socket hang up');
  expect(s3.commandCalls(PutObjectCommand)).toHaveLength(5);
}, 15_000);
