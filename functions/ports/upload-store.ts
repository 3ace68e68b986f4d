/** Direct uploads: one record per upload form handed out, used at most once. */
import type { Upload, UploadPurpose } from '#domain/upload-record';

export interface UploadStore {
  create(upload: Upload): Promise<void>;
  /** An upload of another account is not found: ids are looked up within the account. */
  get(accountId: number, uploadId: string): Promise<Upload | undefined>;
  /**
   * Marks a pending, unexpired upload of `purpose` used. Of concurrent claims of one upload exactly
   * one answers the upload; the others (and a claim of a used, expired or unknown one) answer undefined.
   */
  claim(accountId: number, uploadId: string, purpose: UploadPurpose, now: Date): Promise<Upload | undefined>;
  /** Puts a claimed upload back to pending: what used it was taken back. */
  release(accountId: number, uploadId: string): Promise<void>;
}
