/**
 * Files of any size the API takes, sent straight to storage instead of through the API (on AWS a
 * request body carries about 4 MB): POST /uploads answers a presigned form, the file goes to it, and
 * the upload's id then stands for the file in one create (`demo_video_upload_id`, `image_upload_id`,
 * `reference_video_upload_id`).
 */
import { filePart, type FileInput } from './files.js';
import { unwrap } from './result.js';
import type { FetchLike } from './retry.js';
import type { TypedClient, paths } from './types.js';

type UploadRequest = paths['/uploads']['post']['requestBody'] extends { content: { 'application/json': infer B } } ? B : never;
export type UploadPurpose = UploadRequest['purpose'];
export type Upload = Awaited<ReturnType<typeof createUpload>>;

export interface UploadFileOptions {
  /** The file's media type; taken from the Blob when it has one. The API checks the bytes against it when the upload is used. */
  contentType?: string;
}

/** Storage refused the file (an expired form, a size past the declared one): the body is storage's own, not the API's envelope. */
export class StorageUploadError extends Error {
  override readonly name = 'StorageUploadError';
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`storage refused the upload (${status}): ${body.slice(0, 200)}`);
  }
}

const createUpload = async (api: TypedClient, body: UploadRequest) => (await unwrap(api.POST('/uploads', { body }))).data;

/**
 * Declares the upload, sends the file to its form (with `send`: no API key goes to storage) and answers
 * the upload, whose `id` a create then names.
 */
export async function uploadFile(api: TypedClient, send: FetchLike, purpose: UploadPurpose, file: FileInput, options: UploadFileOptions = {}): Promise<Upload> {
  const { blob, filename } = filePart(file, purpose);
  const contentType = options.contentType ?? blob.type;
  if (!contentType) throw new TypeError('uploadFile needs the media type: pass options.contentType (e.g. video/mp4) or a typed Blob');
  const upload = await createUpload(api, { purpose, content_type: contentType, size_bytes: blob.size, filename });
  const answer = await send(storageRequest(upload, blob, filename));
  if (!answer.ok) throw new StorageUploadError(answer.status, await answer.text());
  return upload;
}

function storageRequest(upload: Upload, blob: Blob, filename: string): Request {
  if (upload.method === 'PUT') return new Request(upload.url, { method: 'PUT', headers: upload.headers ?? {}, body: blob });
  // The form's fields first: storage reads the policy before the file, which must come last.
  const form = new FormData();
  for (const [name, value] of Object.entries(upload.fields ?? {})) form.append(name, value);
  form.append('file', blob, filename);
  return new Request(upload.url, { method: 'POST', body: form });
}
