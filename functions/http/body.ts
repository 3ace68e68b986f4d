/**
 * Request bodies: JSON, form-encoded and multipart/form-data (the API reference lists which each route takes). API Gateway hands binary
 * and multipart bodies over base64-encoded. Files are streamed to a private temp folder with their
 * size limit enforced while writing; the caller removes them with `cleanup()`.
 *
 * Bodies come from anyone: whatever a body holds, reading it ends in fields or in a 4xx AppError,
 * never in an unhandled stream error (which would take the whole process down) or a leftover file.
 */
import Busboy from 'busboy';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError, badRequest } from '#domain/errors';
import type { ApiEvent, ApiRequest } from './api-types';
import type { Ports } from '#ports/ports';
import { fullPath, JSON_BODY_LIMIT } from '#functions/routes';

export type BodyKind = 'json' | 'form' | 'multipart';

interface UploadedFile {
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

type FileRules = Record<string, { maxBytes: number; label?: string }>;

export interface BodyOptions {
  accept: readonly BodyKind[];
  /** File fields this operation takes, with their size limits; any other file part is a 400. */
  files?: FileRules;
  /** Where uploads are written (default: the OS temp dir). */
  tempDir?: string;
}

const MAX_FIELDS = 50;
const MAX_FIELD_BYTES = 64 * 1024;
/** No field of ours is longer; error messages name the field, so a 1 MB name must not reach one. */
const MAX_FIELD_NAME_LENGTH = 100;
/** Our inputs nest a few levels; deeper JSON would overflow the stack of whatever walks it later. */
const MAX_JSON_DEPTH = 32;
const nothingToClean = async () => {};
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The body's bytes as the client sent them (API Gateway hands binary bodies over base64-encoded). */
export function bodyBytes(event: Pick<ApiEvent, 'body' | 'isBase64Encoded'>): Buffer {
  return event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
}

export async function readBody(event: ApiEvent, options: BodyOptions): Promise<ParsedBody> {
  const raw = bodyBytes(event);
  const contentType = event.headers?.['content-type'] ?? '';
  const mediaType = mediaTypeOf(contentType);

  if (raw.length === 0 && mediaType !== 'multipart/form-data') {
    return { kind: 'empty', fields: newRecord(), files: newRecord(), cleanup: nothingToClean };
  }
  const kind = kindOf(mediaType);
  if (!kind || !options.accept.includes(kind)) {
    throw new AppError(
      'unsupported_media_type',
      `Content-Type ${mediaType.slice(0, MAX_FIELD_NAME_LENGTH) || '(none)'} is not accepted here; send ${describe(options.accept)}`,
    );
  }
  if (kind !== 'multipart' && raw.length > JSON_BODY_LIMIT) {
    throw new AppError('payload_too_large', `A ${kind} body may be at most ${JSON_BODY_LIMIT / 1024} KB`);
  }
  if (kind === 'json') return { kind, fields: parseJson(raw), files: newRecord(), cleanup: nothingToClean };
  if (kind === 'form') return { kind, fields: parseForm(raw), files: newRecord(), cleanup: nothingToClean };
  return parseMultipart(raw, contentType, options.files ?? {}, options.tempDir ?? tmpdir());
}

/** The kind of body a Content-Type header announces; the local server sizes bodies by it. */
export function bodyKindOf(contentType: string | undefined): BodyKind | undefined {
  return kindOf(mediaTypeOf(contentType ?? ''));
}

function mediaTypeOf(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
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

/** Without a prototype, a field named `__proto__` is just an unknown field, not a prototype change. */
function newRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** A lenient decoder would turn broken bytes into U+FFFD and store them; the client should hear of it. */
function decodeUtf8(bytes: Uint8Array, what: string): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw badRequest(`${what} is not valid UTF-8`);
  }
}

function parseJson(raw: Buffer): Record<string, unknown> {
  const text = decodeUtf8(raw, 'Request body');
  if (nestingDepth(text) > MAX_JSON_DEPTH) throw badRequest(`Request body is nested more than ${MAX_JSON_DEPTH} levels deep`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest('Request body is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest('Request body must be a JSON object');
  }
  // JSON.parse makes `__proto__` an own key, harmless; only the names' length needs a check.
  for (const name of Object.keys(value)) checkFieldName(name);
  return value as Record<string, unknown>;
}

/** The deepest bracket nesting outside strings; a scan, so it cannot overflow on what it measures. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

function parseForm(raw: Buffer): Record<string, unknown> {
  const fields = newRecord<unknown>();
  for (const pair of decodeUtf8(raw, 'Request body').split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = formComponent(eq < 0 ? pair : pair.slice(0, eq));
    addField(fields, name, formComponent(eq < 0 ? '' : pair.slice(eq + 1)));
  }
  return fields;
}

/**
 * Percent-decoding as URLSearchParams does it (a `%` not followed by two hex digits stays as it is),
 * except that the decoded bytes must be UTF-8 instead of silently becoming U+FFFD.
 */
function formComponent(encoded: string): string {
  const bytes = Buffer.from(encoded.replace(/\+/g, ' '), 'utf8');
  const out = Buffer.alloc(bytes.length);
  let length = 0;
  for (let i = 0; i < bytes.length; i++) {
    const escaped = bytes[i] === 0x25 ? hexByte(bytes, i + 1) : undefined;
    if (escaped === undefined) {
      out[length++] = bytes[i]!;
    } else {
      out[length++] = escaped;
      i += 2;
    }
  }
  return decodeUtf8(out.subarray(0, length), 'A form field');
}

function hexByte(bytes: Buffer, at: number): number | undefined {
  const text = bytes.toString('latin1', at, at + 2);
  return /^[0-9a-fA-F]{2}$/.test(text) ? parseInt(text, 16) : undefined;
}

function checkFieldName(name: string | undefined): asserts name is string {
  if (!name) throw badRequest('A field has no name');
  if (name.length > MAX_FIELD_NAME_LENGTH) throw badRequest(`A field name is longer than ${MAX_FIELD_NAME_LENGTH} characters`);
}

function addField(fields: Record<string, unknown>, name: string | undefined, value: string): void {
  checkFieldName(name);
  if (Object.hasOwn(fields, name)) throw badRequest(`Field ${name} is given more than once`);
  if (Object.keys(fields).length >= MAX_FIELDS) throw badRequest(`Too many fields (at most ${MAX_FIELDS})`);
  fields[name] = value;
}

async function parseMultipart(raw: Buffer, contentType: string, rules: FileRules, tempDir: string): Promise<ParsedBody> {
  const parser = openMultipart(contentType, rules);
  const dir = await mkdtemp(join(tempDir, 'rs-upload-'));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    const { fields, files } = await collectParts(raw, parser, rules, dir);
    return { kind: 'multipart', fields, files, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

function openMultipart(contentType: string, rules: FileRules): Busboy.Busboy {
  const fileCount = Object.keys(rules).length;
  try {
    return Busboy({
      headers: { 'content-type': contentType },
      // Browsers send file names as raw UTF-8 bytes.
      defParamCharset: 'utf8',
      limits: {
        fields: MAX_FIELDS,
        fieldSize: MAX_FIELD_BYTES,
        files: fileCount,
        fileSize: Math.max(0, ...Object.values(rules).map((f) => f.maxBytes)) + 1,
        // Parts without a name or disposition are skipped by busboy; they must not be free either.
        parts: MAX_FIELDS + fileCount,
      },
    });
  } catch {
    throw badRequest('Malformed multipart/form-data: missing or invalid boundary');
  }
}

const truncatedBody = () => badRequest('Malformed or truncated multipart/form-data body');
const tooLarge = (name: string, rule: FileRules[string]) =>
  new AppError('payload_too_large', `${rule.label ?? name} is larger than ${Math.round(rule.maxBytes / 1024 / 1024)} MB`);

/**
 * Runs the body through busboy. The first problem found is the answer, but parsing goes on to the end
 * so that every file stream is drained and every write has settled before the folder is removed.
 */
async function collectParts(raw: Buffer, parser: Busboy.Busboy, rules: FileRules, dir: string) {
  const fields = newRecord<unknown>();
  const files = newRecord<UploadedFile>();
  const writes: Promise<unknown>[] = [];
  let failure: unknown;
  const fail = (error: unknown) => {
    failure ??= error;
  };

  parser.on('field', (name, value, info) => {
    try {
      checkFieldName(name);
      if (info.valueTruncated) throw badRequest(`Field ${name} is too long`);
      if (Object.hasOwn(files, name)) throw badRequest(`Field ${name} is given more than once`);
      // busboy decodes leniently; a replacement character here almost always was a broken byte.
      if (value.includes('\uFFFD')) throw badRequest(`Field ${name} is not valid UTF-8`);
      addField(fields, name, value);
    } catch (error) {
      fail(error);
    }
  });
  parser.on('file', (name, stream, info) => {
    // A file stream that errors (the form ends inside it) with no listener crashes the process.
    stream.on('error', () => fail(truncatedBody()));
    const refusal = fileRefusal(name, rules, fields, files);
    if (refusal) {
      fail(refusal);
      stream.resume();
      return;
    }
    const rule = rules[name]!;
    const file: UploadedFile = { field: name, filename: info.filename ?? '', path: join(dir, `${Object.keys(files).length}`), size: 0 };
    files[name] = file;
    stream.on('data', (chunk: Buffer) => {
      file.size += chunk.length;
    });
    stream.on('limit', () => fail(tooLarge(name, rule)));
    writes.push(
      pipeline(stream, createWriteStream(file.path)).then(
        () => file.size > rule.maxBytes && fail(tooLarge(name, rule)),
        // A broken form already failed through the stream's listener; what is left is our disk.
        (error: unknown) => fail(stream.errored ? truncatedBody() : error),
      ),
    );
  });
  parser.on('filesLimit', () => fail(badRequest('Too many files in the request')));
  parser.on('fieldsLimit', () => fail(badRequest(`Too many fields (at most ${MAX_FIELDS})`)));
  parser.on('partsLimit', () => fail(badRequest('Too many parts in the request')));

  try {
    await pipeline(Readable.from([raw]), parser);
  } catch {
    fail(truncatedBody());
  }
  await Promise.allSettled(writes);
  if (failure !== undefined) throw failure;
  return { fields, files };
}

function fileRefusal(
  name: string | undefined,
  rules: FileRules,
  fields: Record<string, unknown>,
  files: Record<string, UploadedFile>,
): AppError | undefined {
  try {
    checkFieldName(name);
  } catch (error) {
    return error as AppError;
  }
  // hasOwn: `rules['__proto__']` would otherwise find Object.prototype and take it for a rule.
  if (!Object.hasOwn(rules, name)) return badRequest(`Unexpected file field ${name}`);
  if (Object.hasOwn(files, name) || Object.hasOwn(fields, name)) return badRequest(`File ${name} is given more than once`);
  return undefined;
}

/** The body as the route table declares it (encodings and file parts), so no operation repeats the list. */
export async function readRouteBody(request: ApiRequest<Pick<Ports, 'inlineUploadMaxBytes'>>): Promise<ParsedBody> {
  const declared = request.route.body;
  if (!declared) throw new Error(`route ${request.route.operation} declares no body`);
  refuseOverRouteLimit(request.event, request.route.maxBodyBytes);
  refuseLargeInlineUpload(request.event, request.deps.inlineUploadMaxBytes);
  return readBody(request.event, declared);
}

/**
 * A route that takes no body still hears of a sent one: an empty body, or the `{}` some clients send
 * with every POST, is none; anything else (fields, malformed JSON, a file) is a 400 naming the route,
 * not silently ignored, so a client that thinks it passed something learns it did not.
 */
export function refuseUnexpectedBody(request: ApiRequest<unknown>): void {
  const { event, route } = request;
  if (route.body || saysNothing(event)) return;
  throw badRequest(`${route.method} ${fullPath(route.path)} takes no request body; send none (or {})`);
}

/** No `{}` with its white space is longer; a longer body is refused without being decoded. */
const EMPTY_OBJECT_BYTES = 64;

function saysNothing(event: ApiEvent): boolean {
  const mediaType = mediaTypeOf(event.headers?.['content-type'] ?? '');
  // Even an empty multipart body is a malformed one: it lacks its closing boundary.
  if (mediaType === 'multipart/form-data') return false;
  const size = bodySize(event);
  if (size === 0) return true;
  const jsonOrUntyped = mediaType === '' || kindOf(mediaType) === 'json';
  return jsonOrUntyped && size <= EMPTY_OBJECT_BYTES && /^\s*(\{\s*\})?\s*$/.test(bodyBytes(event).toString('latin1'));
}

/**
 * The body's bytes exactly as sent, for a route whose body is signed (a payment provider's webhook):
 * a signature covers those bytes, not what parsing and serialising them again would give. Only the
 * route's size limit is checked here; the signature is what decides whether it is read at all.
 */
export function rawRouteBody(request: ApiRequest<unknown>): Buffer {
  if (!request.route.body) throw new Error(`route ${request.route.operation} declares no body`);
  refuseOverRouteLimit(request.event, request.route.maxBodyBytes);
  return bodyBytes(request.event);
}

const bodySize = (event: ApiEvent) => (!event.body ? 0 : event.isBase64Encoded ? Buffer.byteLength(event.body, 'base64') : Buffer.byteLength(event.body, 'utf8'));

/**
 * The route's own limit (4 KB for sign-in, 256 KB for fields, an upload's size for files). The local
 * server refuses a larger body before reading it; on AWS the body arrives whole, so it is refused
 * here, with the same 413.
 */
function refuseOverRouteLimit(event: ApiEvent, maxBytes: number): void {
  if (bodySize(event) > maxBytes) throw new AppError('payload_too_large', `Request body is larger than ${maxBytes} bytes`);
}

const sizeInWords = (bytes: number) => (bytes >= 100 * 1024 ? `${+(bytes / 1024 / 1024).toFixed(1)} MB` : `${bytes} bytes`);

/** Where the runtime caps inline uploads (AWS), a larger multipart body is pointed to the direct-upload path. */
function refuseLargeInlineUpload(event: ApiEvent, limit: number | undefined): void {
  if (limit === undefined || !event.body || bodyKindOf(event.headers?.['content-type']) !== 'multipart') return;
  if (bodySize(event) <= limit) return;
  throw new AppError(
    'payload_too_large',
    `A multipart body here may be at most ${sizeInWords(limit)}; send larger files with POST /uploads and name the upload's id instead of the file part`,
  );
}
