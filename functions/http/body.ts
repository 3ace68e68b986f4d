/**
 * Request bodies: JSON, form-encoded and multipart/form-data (API.md §1). API Gateway hands binary
 * and multipart bodies over base64-encoded. Files are streamed to a private temp folder with their
 * size limit enforced while writing; the caller removes them with `cleanup()`.
 */
import Busboy from 'busboy';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError, badRequest } from '../domain/errors';
import type { ApiEvent } from './api-types';
import { JSON_BODY_LIMIT } from '../routes';

export type BodyKind = 'json' | 'form' | 'multipart';

export interface UploadedFile {
  field: string;
  filename: string;
  path: string;
  size: number;
}

export interface ParsedBody {
  kind: BodyKind | 'empty';
  fields: Record<string, unknown>;
  files: Record<string, UploadedFile>;
  cleanup(): Promise<void>;
}

export interface BodyOptions {
  accept: readonly BodyKind[];
  /** File fields this operation takes, with their size limits; any other file part is a 400. */
  files?: Record<string, { maxBytes: number; label?: string }>;
}

const MAX_FIELDS = 50;
const MAX_FIELD_BYTES = 64 * 1024;
const nothingToClean = async () => {};

export async function readBody(event: ApiEvent, options: BodyOptions): Promise<ParsedBody> {
  const raw = event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  const contentType = event.headers?.['content-type'] ?? '';
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase();

  if (raw.length === 0 && mediaType !== 'multipart/form-data') {
    return { kind: 'empty', fields: {}, files: {}, cleanup: nothingToClean };
  }
  const kind = kindOf(mediaType);
  if (!kind || !options.accept.includes(kind)) {
    throw new AppError(
      'unsupported_media_type',
      `Content-Type ${mediaType || '(none)'} is not accepted here; send ${describe(options.accept)}`,
    );
  }
  if (kind !== 'multipart' && raw.length > JSON_BODY_LIMIT) {
    throw new AppError('payload_too_large', `A ${kind} body may be at most ${JSON_BODY_LIMIT / 1024} KB`);
  }
  if (kind === 'json') return { kind, fields: parseJson(raw), files: {}, cleanup: nothingToClean };
  if (kind === 'form') return { kind, fields: parseForm(raw.toString('utf8')), files: {}, cleanup: nothingToClean };
  return parseMultipart(raw, contentType, options.files ?? {});
}

function kindOf(mediaType: string): BodyKind | undefined {
  if (mediaType === 'application/json' || mediaType.endsWith('+json')) return 'json';
  if (mediaType === 'application/x-www-form-urlencoded') return 'form';
  if (mediaType === 'multipart/form-data') return 'multipart';
  return undefined;
}

function describe(kinds: readonly BodyKind[]): string {
  const names = { json: 'application/json', form: 'application/x-www-form-urlencoded', multipart: 'multipart/form-data' };
  return kinds.map((k) => names[k]).join(', ');
}

function parseJson(raw: Buffer): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    throw badRequest('Request body is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest('Request body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

function parseForm(text: string): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [name, value] of new URLSearchParams(text)) addField(fields, name, value);
  return fields;
}

function addField(fields: Record<string, unknown>, name: string, value: string): void {
  if (Object.hasOwn(fields, name)) throw badRequest(`Field ${name} is given more than once`);
  if (Object.keys(fields).length >= MAX_FIELDS) throw badRequest(`Too many fields (at most ${MAX_FIELDS})`);
  fields[name] = value;
}

async function parseMultipart(
  raw: Buffer,
  contentType: string,
  allowedFiles: Record<string, { maxBytes: number; label?: string }>,
): Promise<ParsedBody> {
  const dir = await mkdtemp(join(tmpdir(), 'rs-upload-'));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  const largest = Math.max(0, ...Object.values(allowedFiles).map((f) => f.maxBytes));
  const fields: Record<string, unknown> = {};
  const files: Record<string, UploadedFile> = {};
  try {
    let parser: Busboy.Busboy;
    try {
      parser = Busboy({
        headers: { 'content-type': contentType },
        limits: { fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, files: Object.keys(allowedFiles).length, fileSize: largest + 1 },
      });
    } catch {
      throw badRequest('Malformed multipart/form-data: missing or invalid boundary');
    }
    const writes: Promise<void>[] = [];
    let failure: AppError | undefined;
    const fail = (error: AppError) => {
      failure ??= error;
    };

    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(badRequest(`Field ${name} is too long`));
      try {
        addField(fields, name, value);
      } catch (error) {
        fail(error as AppError);
      }
    });
    parser.on('file', (name, stream, info) => {
      const rule = allowedFiles[name];
      if (!rule || files[name]) {
        stream.resume();
        return fail(badRequest(rule ? `File ${name} is given more than once` : `Unexpected file field ${name}`));
      }
      const path = join(dir, `${Object.keys(files).length}-${name}`);
      const file: UploadedFile = { field: name, filename: info.filename ?? '', path, size: 0 };
      files[name] = file;
      stream.on('data', (chunk: Buffer) => {
        file.size += chunk.length;
      });
      stream.on('limit', () =>
        fail(new AppError('payload_too_large', `${rule.label ?? name} is larger than ${Math.round(rule.maxBytes / 1024 / 1024)} MB`)),
      );
      writes.push(
        pipeline(stream, createWriteStream(path)).then(
          () => {
            if (file.size > rule.maxBytes) {
              fail(new AppError('payload_too_large', `${rule.label ?? name} is larger than ${Math.round(rule.maxBytes / 1024 / 1024)} MB`));
            }
          },
          // The form ended inside this file: the parser reports it too; never leave this unhandled.
          () => fail(badRequest('Malformed or truncated multipart/form-data body')),
        ),
      );
    });
    parser.on('filesLimit', () => fail(badRequest('Too many files in the request')));
    parser.on('fieldsLimit', () => fail(badRequest(`Too many fields (at most ${MAX_FIELDS})`)));

    try {
      await pipeline(Readable.from([raw]), parser);
      await Promise.all(writes);
    } catch {
      await Promise.allSettled(writes);
      throw failure ?? badRequest('Malformed or truncated multipart/form-data body');
    }
    if (failure) throw failure;
    return { kind: 'multipart', fields, files, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
