/** Media objects by key: files in and out, server-side copies, deletes and time-limited links. */
import type { UploadForm } from '#domain/upload-record';

export interface PlaybackLink {
  url: string;
  expiresAt: string;
}

/**
 * How an object is written: `tags` are object tags (S3's), which lifecycle rules select on (a
 * finished video's retention class, domain/video-retention.ts). Keys and values are plain words.
 */
export interface PutOptions {
  tags?: Readonly<Record<string, string>>;
}

export interface BlobStore {
  putFile(key: string, path: string, contentType: string, options?: PutOptions): Promise<void>;
  putBuffer(key: string, data: Buffer, contentType: string): Promise<void>;
  /** The bytes never pass through the caller; the content type is kept, and the source's tags unless `options.tags` replaces them. */
  copy(fromKey: string, toKey: string, options?: PutOptions): Promise<void>;
  getToFile(key: string, path: string): Promise<void>;
  deleteKeys(keys: readonly string[]): Promise<void>;
  deletePrefix(prefix: string): Promise<void>;
  listKeys(prefix: string): Promise<string[]>;
  /** A link that reads the object until `expiresAt`; `ttlS` is capped at what the store allows. */
  playbackUrl(key: string, now?: Date, ttlS?: number): Promise<PlaybackLink>;
  /**
   * As `playbackUrl`, but the response carries `Content-Disposition: attachment` with `filename`, so a
   * browser saves the object instead of showing it (the link's own origin need not be ours).
   */
  downloadUrl(key: string, filename: string, now?: Date, ttlS?: number): Promise<PlaybackLink>;
  /**
   * A form a client sends one file to `key` with, without passing through us: storage itself holds
   * it to the media type and to at most `maxBytes`, until `expiresInS` from now.
   */
  uploadForm(key: string, limits: { contentType: string; maxBytes: number; expiresInS: number }): Promise<UploadForm>;
  /** The object's size in bytes, or undefined when there is none. */
  sizeOf(key: string): Promise<number | undefined>;
}

/** Playback links live a day: long enough to watch and share, short enough to expire leaks. */
export const PLAYBACK_URL_TTL_S = 24 * 60 * 60;
