/**
 * POST /uploads: hands out a one-hour, one-file form for the account's own prefix. The declared media
 * type and size are checked against the purpose's here (the same limits as a multipart file part), and
 * storage holds the file to them; the bytes are judged again when the upload is used.
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '#domain/errors';
import { UPLOAD_RULES, UPLOAD_TTL_S, uploadObjectKey, type Upload, type UploadForm } from '#domain/upload-record';
import type { CreateUploadInput } from '#domain/schemas/upload';
import type { Ports } from '#ports/ports';

export type CreateUploadDeps = Pick<Ports, 'uploads' | 'blobs' | 'now'>;

const MB = 1024 * 1024;

export async function createUpload(deps: CreateUploadDeps, accountId: number, input: CreateUploadInput): Promise<{ upload: Upload; form: UploadForm }> {
  const rule = UPLOAD_RULES[input.purpose];
  if (!rule.contentTypes.includes(input.content_type)) {
    throw new AppError('unsupported_media_type', `content_type: a ${input.purpose} upload is one of ${rule.contentTypes.join(', ')}`);
  }
  if (input.size_bytes > rule.maxBytes) {
    throw new AppError('payload_too_large', `size_bytes: a ${input.purpose} upload is at most ${rule.maxBytes / MB} MB`);
  }
  const id = randomUUID();
  const now = deps.now();
  const upload: Upload = {
    id,
    account_id: accountId,
    purpose: input.purpose,
    content_type: input.content_type,
    size_bytes: input.size_bytes,
    filename: input.filename ?? null,
    key: uploadObjectKey(accountId, id),
    status: 'pending',
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + UPLOAD_TTL_S * 1000).toISOString(),
  };
  // Signing writes nothing, so the form comes first: a failed record leaves no usable form behind.
  const form = await deps.blobs.uploadForm(upload.key, { contentType: upload.content_type, maxBytes: upload.size_bytes, expiresInS: UPLOAD_TTL_S });
  await deps.uploads.create(upload);
  return { upload, form };
}
