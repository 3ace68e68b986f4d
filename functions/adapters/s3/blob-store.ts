/** Media objects in the bucket (s3rver locally): files in and out, presigned playback, prefix deletes. */
import {
  CopyObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { s3 } from '#adapters/aws-clients';
import { config } from '#functions/config';

/** Playback links live a day: long enough to watch and share, short enough to expire leaks. */
export const PLAYBACK_URL_TTL_S = 24 * 60 * 60;

export async function putFile(key: string, path: string, contentType: string): Promise<void> {
  const { size } = await stat(path);
  await s3().send(
    new PutObjectCommand({
      Bucket: config.bucketName,
      Key: key,
      Body: createReadStream(path),
      ContentLength: size,
      ContentType: contentType,
    }),
  );
}

export async function putBuffer(key: string, data: Buffer, contentType: string): Promise<void> {
  await s3().send(new PutObjectCommand({ Bucket: config.bucketName, Key: key, Body: data, ContentType: contentType }));
}

/** A server-side copy: the bytes never pass through the caller, and the content type is kept. */
export async function copyObject(fromKey: string, toKey: string): Promise<void> {
  // CopySource is "bucket/key" URL-encoded; the slashes between key segments stay literal.
  const source = `${config.bucketName}/${fromKey.split('/').map(encodeURIComponent).join('/')}`;
  await s3().send(new CopyObjectCommand({ Bucket: config.bucketName, Key: toKey, CopySource: source }));
}

export async function getToFile(key: string, path: string): Promise<void> {
  const out = await s3().send(new GetObjectCommand({ Bucket: config.bucketName, Key: key }));
  await pipeline(out.Body as Readable, createWriteStream(path));
}

export async function deleteKeys(keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 1000) {
    const batch = keys.slice(i, i + 1000);
    if (batch.length === 0) continue;
    await s3().send(
      new DeleteObjectsCommand({ Bucket: config.bucketName, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
    );
  }
}

export async function deletePrefix(prefix: string): Promise<void> {
  let token: string | undefined;
  do {
    const out = await s3().send(new ListObjectsV2Command({ Bucket: config.bucketName, Prefix: prefix, ContinuationToken: token }));
    await deleteKeys((out.Contents ?? []).map((o) => o.Key!).filter(Boolean));
    token = out.IsTruncated ? out.NextContinuationToken : undefined;
  } while (token);
}

export async function listKeys(prefix: string): Promise<string[]> {
  const out = await s3().send(new ListObjectsV2Command({ Bucket: config.bucketName, Prefix: prefix }));
  return (out.Contents ?? []).map((o) => o.Key!).filter(Boolean);
}

/** SigV4 presigned URLs cannot live longer than 7 days. */
export const PRESIGNED_URL_MAX_TTL_S = 7 * 24 * 60 * 60;

/**
 * A presigned GET URL, 24 h by default. `ttlS` lets a caller ask longer (a scheduled post's media is
 * fetched by the provider at its time), capped at the 7 days SigV4 allows.
 */
export async function playbackUrl(key: string, now = new Date(), ttlS = PLAYBACK_URL_TTL_S): Promise<{ url: string; expiresAt: string }> {
  const expiresIn = Math.max(1, Math.min(PRESIGNED_URL_MAX_TTL_S, Math.floor(ttlS)));
  const url = await getSignedUrl(s3(), new GetObjectCommand({ Bucket: config.bucketName, Key: key }), { expiresIn });
  return { url, expiresAt: new Date(now.getTime() + expiresIn * 1000).toISOString() };
}
