/**
 * Direct uploads: a client asks for an upload (POST /uploads), sends the file straight to storage
 * with the presigned form it gets back, then names the upload's id where it would have sent the file.
 * The record is what makes that safe: it belongs to one account, serves one purpose, declares its
 * media type and size, expires, and is used once.
 */
// Published with the typed client, so that clients check the same types before sending.
import { UPLOAD_CONTENT_TYPES } from '#client/limits';
import { AVATAR_UPLOAD_MAX_BYTES, DEMO_VIDEO_MAX_BYTES, MUSIC_MAX_BYTES, REFERENCE_VIDEO_MAX_BYTES } from './uploads';

export const UPLOAD_PURPOSES = ['demo_video', 'avatar_image', 'reference_video', 'music'] as const;
export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];

/** An upload form is good for an hour; an upload not used by then is refused (410). */
export const UPLOAD_TTL_S = 60 * 60;

interface PurposeRule {
  maxBytes: number;
  /** The media types a client may declare; the bytes decide again when the upload is used. */
  contentTypes: readonly string[];
  /** The field that names an upload of this purpose. */
  field: string;
}

/** The same caps and types the multipart file parts take (functions/routes.ts, the media checks). */
export const UPLOAD_RULES: Readonly<Record<UploadPurpose, PurposeRule>> = {
  demo_video: { maxBytes: DEMO_VIDEO_MAX_BYTES, contentTypes: UPLOAD_CONTENT_TYPES.demo_video, field: 'demo_video_upload_id' },
  avatar_image: { maxBytes: AVATAR_UPLOAD_MAX_BYTES, contentTypes: UPLOAD_CONTENT_TYPES.avatar_image, field: 'image_upload_id' },
  reference_video: { maxBytes: REFERENCE_VIDEO_MAX_BYTES, contentTypes: UPLOAD_CONTENT_TYPES.reference_video, field: 'reference_video_upload_id' },
  music: { maxBytes: MUSIC_MAX_BYTES, contentTypes: UPLOAD_CONTENT_TYPES.music, field: 'audio_upload_id' },
};

export interface Upload {
  /** Random and unguessable: it is handed around in request bodies. */
  id: string;
  account_id: number;
  purpose: UploadPurpose;
  content_type: string;
  size_bytes: number;
  filename: string | null;
  /** Where the client puts the object: under the account's own prefix. */
  key: string;
  status: 'pending' | 'used';
  created_at: string;
  expires_at: string;
  used_at?: string;
}

/** Where every upload object sits: storage expires what is left there (a form never used, a use that failed). */
export const UPLOADS_PREFIX = 'uploads/';

/** Every upload object sits under one prefix per account, so a form can reach no other key. */
export const uploadObjectKey = (accountId: number, uploadId: string) => `${UPLOADS_PREFIX}${accountId}/${uploadId}`;

export const uploadIsExpired = (upload: Pick<Upload, 'expires_at'>, now: Date) => Date.parse(upload.expires_at) <= now.getTime();

/** What a client sends the file with: a form POST (fields) or, where a store cannot take one, a PUT (headers). */
export type UploadForm =
  | { method: 'POST'; url: string; fields: Record<string, string> }
  | { method: 'PUT'; url: string; headers: Record<string, string> };

export interface UploadView {
  id: string;
  purpose: UploadPurpose;
  method: 'POST' | 'PUT';
  url: string;
  fields?: Record<string, string>;
  headers?: Record<string, string>;
  max_bytes: number;
  expires_at: string;
}

export function uploadView(upload: Upload, form: UploadForm): UploadView {
  const sendWith = form.method === 'POST' ? { fields: form.fields } : { headers: form.headers };
  return { id: upload.id, purpose: upload.purpose, method: form.method, url: form.url, ...sendWith, max_bytes: upload.size_bytes, expires_at: upload.expires_at };
}
