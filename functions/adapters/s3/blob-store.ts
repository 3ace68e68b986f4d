/** The blob store on S3 (s3rver locally): files in and out, presigned playback, prefix deletes. */
import {
  CopyObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NotFound,
  paginateListObjectsV2,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { createWriteStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import pRetry from 'p-retry';
import type { Readable } from 'node:stream';
import { PLAYBACK_URL_TTL_S, type BlobStore, type PlaybackLink, type PutOptions } from '#ports/blob-store';
import type { UploadForm } from '#domain/upload-record';
import { RESPONSE_CONTENT_DISPOSITION, type SignedLinks } from '#adapters/cloudfront/signed-links';

/** SigV4 presigned URLs cannot live longer than 7 days. */
const PRESIGNED_URL_MAX_TTL_S = 7 * 24 * 60 * 60;

/**
 * `attachment; filename="…"`: the name's quotes and backslashes are dropped and anything outside
 * printable ASCII becomes `_`, so the header stays a plain quoted string whatever the caller passes.
 */
function attachment(filename: string): string {
  return `attachment; filename="${filename.replace(/["\\]/g, '').replace(/[^\x20-\x7e]/g, '_')}"`;
}

/** S3's answers for a body that did not arrive whole: the file is still on disk, so sending it again is the cure. */
const BODY_NOT_RECEIVED = ['RequestTimeout', 'IncompleteBody', 'BadDigest', 'XAmzContentSHA256Mismatch'];

/**
 * What a put of a file on disk may try again: no answer at all (a dropped or reset connection, a
 * timeout: nothing was stored), S3 answering 5xx, or a 400 that says the body did not arrive whole.
 * Any other answer (access denied, no such bucket) is the answer. Twice in CI, under load, a
 * streamed put to s3rver failed a demo's normalisation and a preview's render; which answer it gave
 * was not recorded, so this takes any unanswered failure and waits longer between tries.
 */
function isTransientPutError(error: unknown): boolean {
  const e = error as { $retryable?: unknown; $metadata?: { httpStatusCode?: number }; name?: string };
  if (e.$retryable) return true;
  const status = e.$metadata?.httpStatusCode;
  if (status === undefined) return true;
  return status >= 500 || (status === 400 && BODY_NOT_RECEIVED.includes(e.name ?? ''));
}

/** Tags as S3 takes them on a PUT or COPY (`x-amz-tagging`): a URL-encoded query string; undefined for none. */
function taggingOf(options: PutOptions | undefined): string | undefined {
  const tags = Object.entries(options?.tags ?? {});
  return tags.length > 0 ? new URLSearchParams(tags).toString() : undefined;
}

/** DeleteObjects takes at most this many keys per call. */
const DELETE_BATCH = 1000;

export class S3BlobStore implements BlobStore {
  /** `links`: where playback links come from when not presigned by S3 (CloudFront on AWS). */
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly links?: SignedLinks,
  ) {}

  async putFile(key: string, path: string, contentType: string, options?: PutOptions): Promise<void> {
    const { size } = await stat(path);
    const tagging = taggingOf(options);
    // The SDK cannot retry a streamed body it has already read from, so a dropped connection is
    // retried here with a fresh stream (the file is still on disk), as the SDK would retry a buffer.
    await pRetry(
      async () => {
        // Opened before the call and closed after it, whatever happened: an attempt that failed
        // before reading leaves no descriptor open and no stream opening after the file is gone.
        const handle = await open(path, 'r');
        try {
          await this.client.send(
            new PutObjectCommand({
              Bucket: this.bucket,
              Key: key,
              Body: handle.createReadStream({ autoClose: false }),
              ContentLength: size,
              ContentType: contentType,
              ...(tagging ? { Tagging: tagging } : {}),
            }),
          );
        } finally {
          await handle.close();
        }
      },
      // Five tries over about 4 s (0.25, 0.5, 1, 2 s apart).
      { retries: 4, minTimeout: 250, factor: 2, shouldRetry: ({ error }) => isTransientPutError(error) },
    );
  }

  async putBuffer(key: string, data: Buffer, contentType: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: data, ContentType: contentType }));
  }

  async copy(fromKey: string, toKey: string, options?: PutOptions): Promise<void> {
    // CopySource is "bucket/key" URL-encoded; the slashes between key segments stay literal.
    const source = `${this.bucket}/${fromKey.split('/').map(encodeURIComponent).join('/')}`;
    const tagging = taggingOf(options);
    // Without tags S3 copies the source's (TaggingDirective COPY); with them the copy gets these only.
    const tags = tagging ? { Tagging: tagging, TaggingDirective: 'REPLACE' as const } : {};
    await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: toKey, CopySource: source, ...tags }));
  }

  async getToFile(key: string, path: string): Promise<void> {
    const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    await pipeline(out.Body as Readable, createWriteStream(path));
  }

  async deleteKeys(keys: readonly string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH);
      if (batch.length === 0) continue;
      await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    for await (const out of paginateListObjectsV2({ client: this.client }, { Bucket: this.bucket, Prefix: prefix })) {
      await this.deleteKeys((out.Contents ?? []).map((o) => o.Key!).filter(Boolean));
    }
  }

  /** Every key under the prefix, however many pages of 1,000 that takes. */
  async listKeys(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    for await (const out of paginateListObjectsV2({ client: this.client }, { Bucket: this.bucket, Prefix: prefix })) {
      keys.push(...(out.Contents ?? []).map((o) => o.Key!).filter(Boolean));
    }
    return keys;
  }

  /**
   * A signed link (CloudFront when configured, else an S3 presigned GET), 24 h by default. `ttlS` lets
   * a caller ask longer (a scheduled post's media is fetched by the provider at its time), capped at
   * what the signer allows: 7 days for SigV4, a year and a day for CloudFront.
   */
  async playbackUrl(key: string, now = new Date(), ttlS = PLAYBACK_URL_TTL_S): Promise<PlaybackLink> {
    return this.signedLink(key, undefined, now, ttlS);
  }

  /**
   * The same link asking S3 to answer with `Content-Disposition: attachment` (the
   * `response-content-disposition` override, which S3 honours on signed requests: SigV4 presigned
   * locally, CloudFront's origin access control on AWS, whose distribution forwards that query string).
   */
  async downloadUrl(key: string, filename: string, now = new Date(), ttlS = PLAYBACK_URL_TTL_S): Promise<PlaybackLink> {
    return this.signedLink(key, attachment(filename), now, ttlS);
  }

  private async signedLink(key: string, disposition: string | undefined, now: Date, ttlS: number): Promise<PlaybackLink> {
    const expiresIn = Math.max(1, Math.min(this.links?.maxTtlS ?? PRESIGNED_URL_MAX_TTL_S, Math.floor(ttlS)));
    const expiresAt = new Date(now.getTime() + expiresIn * 1000);
    const url = this.links
      ? await this.links.sign(key, expiresAt, disposition === undefined ? undefined : { [RESPONSE_CONTENT_DISPOSITION]: disposition })
      : await getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key, ResponseContentDisposition: disposition }), { expiresIn });
    return { url, expiresAt: expiresAt.toISOString() };
  }

  /**
   * A presigned POST: its policy fixes the key and the Content-Type and bounds the size
   * (content-length-range), so S3 refuses any other file. s3rver (local) takes the same form without
   * checking the policy; the size is checked again when the upload is used, so both refuse alike.
   */
  async uploadForm(key: string, limits: { contentType: string; maxBytes: number; expiresInS: number }): Promise<UploadForm> {
    const { url, fields } = await createPresignedPost(this.client, {
      Bucket: this.bucket,
      Key: key,
      Conditions: [
        ['content-length-range', 1, limits.maxBytes],
        ['eq', '$Content-Type', limits.contentType],
      ],
      Fields: { 'Content-Type': limits.contentType },
      Expires: limits.expiresInS,
    });
    return { method: 'POST', url, fields };
  }

  async sizeOf(key: string): Promise<number | undefined> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return out.ContentLength ?? 0;
    } catch (error) {
      if (error instanceof NotFound || (error as { name?: string }).name === 'NotFound') return undefined;
      throw error;
    }
  }
}
