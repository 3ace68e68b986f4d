/**
 * Where an operation takes a file: a multipart part already on disk, a public https link
 * (demo_video_url, image_url: fetched to a scratch file within the purpose's cap, then judged the
 * same), or a direct upload (POST /uploads) named by id. An upload is checked (its account, purpose, state, expiry, that its object is there and
 * no larger than declared), claimed (once, whatever races), copied to a scratch file and handed to the
 * same checks a multipart file gets. If the work refuses or fails, the claim is given back, and a
 * file the checks refused is deleted, so nothing is left behind.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError, badRequest, conflict, isAppError, notFound, RefusedAsAsked } from '#domain/errors';
import { UPLOAD_RULES, uploadIsExpired, type Upload, type UploadPurpose } from '#domain/upload-record';
import type { Ports } from '#ports/ports';
import { RemoteFileError } from '#ports/remote-files';
import { Compensation } from './compensation';
import { logOf, type UseCaseLog } from './log';

/** A file sent with the request or uploaded before it. */
export type SentFile = { path: string } | { uploadId: string };
export type FileSource = SentFile | { url: string };

/** What a sent file or direct upload needs; a linked one needs the downloader too (UseUploadDeps). */
export type SentFileDeps = Pick<Ports, 'uploads' | 'blobs' | 'now'> & { log?: UseCaseLog };
export type UseUploadDeps = SentFileDeps & Pick<Ports, 'remoteFiles'>;

/** The field that links a file of each purpose that takes links (a reference clip's link is the job's own reference_url). */
const URL_FIELDS: Readonly<Partial<Record<UploadPurpose, string>>> = { demo_video: 'demo_video_url', avatar_image: 'image_url', reference_video: 'reference_url' };

/** The refusals that judge the file itself: such a file is of no further use, so it goes (unless it was refused only as asked). */
const REFUSALS_OF_THE_FILE = new Set(['payload_too_large', 'unsupported_media_type', 'invalid_media', 'no_face']);

/**
 * Runs `work` on a local copy of the file, wherever it came from. With `claim: false` (a dry run) a
 * direct upload goes through the same checks and its copy to the same `work`, but is not claimed and
 * nothing is deleted, even a file the checks refuse: a dry run changes nothing.
 */
export async function withFile<T>(deps: SentFileDeps, accountId: number, purpose: UploadPurpose, source: SentFile, work: (path: string) => Promise<T>, options?: { claim?: boolean }): Promise<T>;
export async function withFile<T>(deps: UseUploadDeps, accountId: number, purpose: UploadPurpose, source: FileSource, work: (path: string) => Promise<T>, options?: { claim?: boolean }): Promise<T>;
export async function withFile<T>(
  deps: SentFileDeps & Partial<Pick<Ports, 'remoteFiles'>>,
  accountId: number,
  purpose: UploadPurpose,
  source: FileSource,
  work: (path: string) => Promise<T>,
  options: { claim?: boolean } = {},
): Promise<T> {
  if ('path' in source) return work(source.path);
  // The overloads hold a caller that may pass a link to supplying the downloader.
  if ('url' in source) return withLinkedFile(deps as UseUploadDeps, purpose, source.url, work);
  if (options.claim === false) return withCopyOf(deps, await usableUpload(deps, accountId, purpose, source.uploadId, { dryRun: true }), work);
  const upload = await claimUpload(deps, accountId, purpose, source.uploadId);
  const undo = new Compensation(deps);
  undo.add('give the upload back', () => deps.uploads.release(accountId, upload.id));
  try {
    const result = await withCopyOf(deps, upload, work);
    await dropObject(deps, upload);
    return result;
  } catch (error) {
    if (isAppError(error) && REFUSALS_OF_THE_FILE.has(error.code) && !(error instanceof RefusedAsAsked)) await dropObject(deps, upload);
    await undo.undo();
    throw error;
  }
}

/** Runs `work` on a scratch copy of the upload's object, removed after. */
async function withCopyOf<T>(deps: SentFileDeps, upload: Upload, work: (path: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'rs-direct-'));
  try {
    const path = join(dir, 'file');
    await deps.blobs.getToFile(upload.key, path);
    // The form works until it expires, so the object may have changed since it was sized: this copy is what counts.
    if ((await stat(path)).size > upload.size_bytes) throw largerThanDeclared(upload);
    return await work(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function withLinkedFile<T>(deps: UseUploadDeps, purpose: UploadPurpose, url: string, work: (path: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'rs-linked-'));
  try {
    const path = join(dir, 'file');
    await deps.remoteFiles.download(url, { maxBytes: UPLOAD_RULES[purpose].maxBytes, destinationPath: path }).catch((error: unknown) => {
      throw linkRefusal(URL_FIELDS[purpose] ?? UPLOAD_RULES[purpose].field, error);
    });
    return await work(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function linkRefusal(field: string, error: unknown): unknown {
  if (!(error instanceof RemoteFileError)) return error;
  if (error.reason === 'too_large') return new AppError('payload_too_large', `${field}: ${error.message}`, { cause: error, param: field });
  if (error.reason === 'unavailable') return new AppError('upstream_unavailable', `${field}: ${error.message}`, { cause: error, headers: { 'retry-after': '30' }, param: field });
  return badRequest(`${field}: ${error.message}`, field);
}

/** The checks of an upload before it is used (a dry run stops here; an oversized object is deleted only by a real use). */
async function usableUpload(deps: SentFileDeps, accountId: number, purpose: UploadPurpose, uploadId: string, options: { dryRun: boolean }): Promise<Upload> {
  const field = UPLOAD_RULES[purpose].field;
  const upload = await deps.uploads.get(accountId, uploadId);
  if (!upload) throw notFound(`${field}: Upload ${uploadId}`);
  if (upload.purpose !== purpose) throw badRequest(`${field}: upload ${uploadId} is for ${upload.purpose}, not ${purpose}`, field);
  if (upload.status === 'used') throw alreadyUsed(field, uploadId);
  if (uploadIsExpired(upload, deps.now())) throw expired(field, uploadId);
  const size = await deps.blobs.sizeOf(upload.key);
  if (size === undefined) throw conflict(`${field}: nothing was uploaded to upload ${uploadId} yet; send the file with its form first`);
  if (size > upload.size_bytes) {
    if (!options.dryRun) await dropObject(deps, upload);
    throw largerThanDeclared(upload);
  }
  return upload;
}

async function claimUpload(deps: SentFileDeps, accountId: number, purpose: UploadPurpose, uploadId: string): Promise<Upload> {
  const field = UPLOAD_RULES[purpose].field;
  await usableUpload(deps, accountId, purpose, uploadId, { dryRun: false });
  const claimed = await deps.uploads.claim(accountId, uploadId, purpose, deps.now());
  if (claimed) return claimed;
  // Another request claimed it meanwhile (or it expired this instant).
  const after = await deps.uploads.get(accountId, uploadId);
  throw after?.status === 'used' ? alreadyUsed(field, uploadId) : expired(field, uploadId);
}

/** A 409 the caller may tell apart: a request repeated with its Idempotency-Key finds its upload used by its twin. */
export class UploadAlreadyUsed extends AppError {
  constructor(field: string, uploadId: string) {
    super('conflict', `${field}: upload ${uploadId} was already used; create a new upload`);
  }
}

const alreadyUsed = (field: string, uploadId: string) => new UploadAlreadyUsed(field, uploadId);
const expired = (field: string, uploadId: string) => notFound(`${field}: Upload ${uploadId} (expired: uploads last an hour)`);
const largerThanDeclared = (upload: Upload) =>
  new AppError('payload_too_large', `${UPLOAD_RULES[upload.purpose].field}: the uploaded file is larger than the ${upload.size_bytes} bytes declared`);

/** Best effort: a leftover upload object costs storage, not correctness. */
async function dropObject(deps: SentFileDeps, upload: Upload): Promise<void> {
  await deps.blobs.deleteKeys([upload.key]).catch((error: unknown) => logOf(deps).warn('an upload object could not be deleted', { key: upload.key, error }));
}
