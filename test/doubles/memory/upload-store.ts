/** Direct uploads in memory, with the DynamoDB store's rules (the shared contract test holds both to them). */
import { uploadIsExpired, type Upload, type UploadPurpose } from '#domain/upload-record';
import type { UploadStore } from '#ports/upload-store';

export class MemoryUploadStore implements UploadStore {
  private readonly uploads = new Map<string, Upload>();

  async create(upload: Upload): Promise<void> {
    const key = this.key(upload.account_id, upload.id);
    if (this.uploads.has(key)) throw new Error(`upload ${upload.id} exists`);
    this.uploads.set(key, { ...upload });
  }

  async get(accountId: number, uploadId: string): Promise<Upload | undefined> {
    const found = this.uploads.get(this.key(accountId, uploadId));
    return found ? { ...found } : undefined;
  }

  async claim(accountId: number, uploadId: string, purpose: UploadPurpose, now: Date): Promise<Upload | undefined> {
    const found = this.uploads.get(this.key(accountId, uploadId));
    if (!found || found.status !== 'pending' || found.purpose !== purpose || uploadIsExpired(found, now)) return undefined;
    Object.assign(found, { status: 'used', used_at: now.toISOString() });
    return { ...found };
  }

  async release(accountId: number, uploadId: string): Promise<void> {
    const found = this.uploads.get(this.key(accountId, uploadId));
    if (!found) return;
    found.status = 'pending';
    delete found.used_at;
  }

  private key(accountId: number, uploadId: string): string {
    return `${accountId}/${uploadId}`;
  }
}
