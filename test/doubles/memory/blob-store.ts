/** Media objects in memory: files go in and out through real paths, so code under test keeps its scratch dirs. */
import { readFile, writeFile } from 'node:fs/promises';
import type { BlobStore, PlaybackLink, PutOptions } from '#ports/blob-store';
import { PLAYBACK_URL_TTL_S } from '#ports/blob-store';
import type { UploadForm } from '#domain/upload-record';

const { floor, max, min } = Math;

interface StoredObject {
  data: Buffer;
  contentType: string;
  /** Object tags, as S3 keeps them (lifecycle rules select on them); absent on an untagged object. */
  tags?: Record<string, string>;
}

/** The longest link the local store (S3 presigned, SigV4) signs: the double caps as it does. */
const MAX_LINK_TTL_S = 7 * 24 * 60 * 60;

const tagged = (tags: Record<string, string> | undefined) => (tags && Object.keys(tags).length > 0 ? { tags: { ...tags } } : {});

export class MemoryBlobStore implements BlobStore {
  readonly objects = new Map<string, StoredObject>();

  async putFile(key: string, path: string, contentType: string, options?: PutOptions): Promise<void> {
    this.objects.set(key, { data: await readFile(path), contentType, ...tagged(options?.tags) });
  }

  async putBuffer(key: string, data: Buffer, contentType: string): Promise<void> {
    this.objects.set(key, { data: Buffer.from(data), contentType });
  }

  async copy(fromKey: string, toKey: string, options?: PutOptions): Promise<void> {
    const { tags, ...source } = this.require(fromKey);
    this.objects.set(toKey, { ...source, ...tagged(options?.tags ?? tags) });
  }

  async getToFile(key: string, path: string): Promise<void> {
    await writeFile(path, this.require(key).data);
  }

  async deleteKeys(keys: readonly string[]): Promise<void> {
    for (const key of keys) this.objects.delete(key);
  }

  async deletePrefix(prefix: string): Promise<void> {
    for (const key of await this.listKeys(prefix)) this.objects.delete(key);
  }

  async listKeys(prefix: string): Promise<string[]> {
    return [...this.objects.keys()].filter((key) => key.startsWith(prefix)).sort();
  }

  async playbackUrl(key: string, now = new Date(), ttlS = PLAYBACK_URL_TTL_S): Promise<PlaybackLink> {
    const expiresIn = max(1, min(MAX_LINK_TTL_S, floor(ttlS)));
    return { url: `memory://${key}`, expiresAt: new Date(now.getTime() + expiresIn * 1000).toISOString() };
  }

  async downloadUrl(key: string, filename: string, now = new Date(), ttlS = PLAYBACK_URL_TTL_S): Promise<PlaybackLink> {
    const link = await this.playbackUrl(key, now, ttlS);
    return { ...link, url: `${link.url}?download=${encodeURIComponent(filename)}` };
  }

  /** The form's limits are kept so a test can read what storage would have enforced. */
  readonly forms = new Map<string, { contentType: string; maxBytes: number; expiresInS: number }>();

  async uploadForm(key: string, limits: { contentType: string; maxBytes: number; expiresInS: number }): Promise<UploadForm> {
    this.forms.set(key, limits);
    return { method: 'POST', url: 'memory://uploads', fields: { key, 'Content-Type': limits.contentType } };
  }

  async sizeOf(key: string): Promise<number | undefined> {
    return this.objects.get(key)?.data.length;
  }

  /** A missing object fails as S3 does: the caller sees an error, not an empty file. */
  private require(key: string): StoredObject {
    const found = this.objects.get(key);
    if (!found) throw Object.assign(new Error(`NoSuchKey: ${key}`), { name: 'NoSuchKey' });
    return found;
  }
}
