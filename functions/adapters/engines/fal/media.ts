/**
 * Files in and out of fal.ai. Inputs are our own blob-store objects handed over as presigned URLs
 * (or, for small images when configured, data: URIs); outputs live on fal's CDN and may expire, so
 * they are downloaded (size-capped while streaming), checked, converted where needed and copied to
 * our blob store at the caller's key.
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';
import { fileTypeFromBuffer } from 'file-type';
import { AppError } from '#domain/errors';
import { canonicalFrameCount, CANONICAL, MediaToolError, normaliseVideo, probeMedia, readFileHead } from '#render';
import { EngineError, REACTION_CLIP, type StoredFile } from '#ports/engine';
import type { BlobStore } from '#ports/blob-store';
import { abortReason } from '#adapters/engines/http-retry';

/** The wiring's blob store: fal reads our inputs through presigned URLs, and its results are copied in. */
export type FalBlobs = Pick<BlobStore, 'putFile' | 'getToFile' | 'playbackUrl'>;

type ImageType = 'image/png' | 'image/jpeg' | 'image/webp';

const IMAGE_TYPES: Record<string, ImageType> = { png: 'image/png', apng: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };

/** The image type from its first bytes; null when not PNG, JPEG or WebP. */
async function sniffImageType(head: Uint8Array): Promise<ImageType | null> {
  const type = await fileTypeFromBuffer(head);
  return (type && IMAGE_TYPES[type.ext]) ?? null;
}


export async function withTempDir<T>(prefix: string, task: (dir: string) => Promise<T>): Promise<T> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), prefix));
  try {
    return await task(dir);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/**
 * How fal gets one of our images: a presigned GET URL, or a data: URI when it is at most
 * `inlineMaxBytes` (useful when the blob store is not reachable from the internet, e.g. s3rver).
 */
export async function imageInputUrl(blobs: FalBlobs, key: string, inlineMaxBytes: number): Promise<string> {
  if (inlineMaxBytes > 0) {
    const inline = await withTempDir('fal-in-', async (dir) => {
      const file = path.join(dir, 'image');
      await blobs.getToFile(key, file);
      const { size } = await fsp.stat(file);
      if (size > inlineMaxBytes) return null;
      const bytes = await fsp.readFile(file);
      const type = await sniffImageType(bytes);
      return type ? `data:${type};base64,${bytes.toString('base64')}` : null;
    });
    if (inline) return inline;
  }
  return (await blobs.playbackUrl(key)).url;
}

/** A presigned GET URL of one of our objects (reference clips are never inlined). */
export async function objectInputUrl(blobs: FalBlobs, key: string): Promise<string> {
  return (await blobs.playbackUrl(key)).url;
}

/** Checks a downloaded image and stores it at `key`; returns what was stored and its size. */
export async function storeImage(blobs: FalBlobs, file: string, key: string): Promise<{ image: StoredFile; width: number; height: number }> {
  const contentType = await sniffImageType(await readFileHead(file, 16));
  if (!contentType) throw new EngineError('provider_error', 'The provider returned an image that is not PNG, JPEG or WebP');
  let width: number | undefined;
  let height: number | undefined;
  try {
    ({ width, height } = await sharp(file).metadata());
  } catch (error) {
    throw new EngineError('provider_error', 'The provider returned an image that cannot be read', { cause: error });
  }
  if (!width || !height) throw new EngineError('provider_error', 'The provider returned an image without a size');
  const { size } = await fsp.stat(file);
  await blobs.putFile(key, file, contentType);
  return { image: { key, contentType, sizeBytes: size }, width, height };
}

export interface StoredClip {
  video: StoredFile;
  durationS: number;
  width: number;
  height: number;
  fps: number;
}

/**
 * Turns a provider's video into a reaction clip: readable, at least 3 s (whole canonical frames),
 * normalised to the canonical encoding and cut to at most 5 s, then stored at `key`.
 */
export async function storeReactionClip(blobs: FalBlobs, source: string, workDir: string, key: string, signal?: AbortSignal): Promise<StoredClip> {
  const probed = await probeMedia(source);
  if (!probed.ok) {
    if (probed.reason === 'tool_unavailable') throw new EngineError('engine_failure', `cannot inspect the provider's video: ${probed.detail}`);
    throw new EngineError('provider_error', 'The provider returned a video that cannot be read', { cause: new Error(probed.detail) });
  }
  const media = probed.media;
  if (!media.video) throw new EngineError('provider_error', 'The provider returned a file with no video stream');
  const lengthS = media.video.durationS ?? media.durationS ?? 0;
  if (canonicalFrameCount(lengthS) < REACTION_CLIP.minS * CANONICAL.fps) {
    throw new EngineError(
      'provider_error',
      `The provider returned a ${lengthS.toFixed(2)} s clip; reaction clips must be ${REACTION_CLIP.minS}-${REACTION_CLIP.maxS} s`,
    );
  }
  const output = path.join(workDir, 'reaction.mp4');
  let result;
  try {
    result = await normaliseVideo(source, output, { maxDurationS: REACTION_CLIP.maxS, timeoutMs: 5 * 60_000 });
  } catch (error) {
    if (error instanceof AppError) throw new EngineError('provider_error', 'The provider returned a video that cannot be read', { cause: error });
    if (error instanceof MediaToolError && error.kind !== 'spawn') {
      throw new EngineError('provider_error', "The provider's video could not be converted to the canonical encoding", { cause: error });
    }
    throw new EngineError('engine_failure', `converting the provider's video failed: ${(error as Error).message}`, { cause: error });
  }
  if (signal?.aborted) throw abortReason(signal);
  await blobs.putFile(key, output, 'video/mp4');
  return {
    video: { key, contentType: 'video/mp4', sizeBytes: result.sizeBytes },
    durationS: canonicalFrameCount(Math.min(lengthS, REACTION_CLIP.maxS)) / CANONICAL.fps,
    width: result.width,
    height: result.height,
    fps: CANONICAL.fps,
  };
}
