/**
 * The local files a command reads (a demo, a reference clip, a track) or writes (a downloaded video):
 * any failure says which file, and why, in words (LocalFileError).
 */
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { NamedFileInput } from '@reaction-studio/client';
import { fileFromPath } from '@reaction-studio/client/node';
import { LocalFileError } from './exit-codes.js';

const REASONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  ENOSPC: 'no space left on the device',
  EROFS: 'the file system is read-only',
};

function fileError(access: 'read' | 'write', what: string, path: string, error: unknown): LocalFileError {
  const code = (error as NodeJS.ErrnoException | null)?.code ?? 'EIO';
  const reason = REASONS[code] ?? (error instanceof Error ? error.message : String(error));
  return new LocalFileError(access, path, code, `cannot ${access} ${what} ${path}: ${reason}`);
}

/** A file to upload, checked before anything is sent; `what` says which argument named it (`--demo`, `FILE`). */
export async function inputFile(path: string, what: string): Promise<NamedFileInput> {
  try {
    if ((await stat(path)).isDirectory()) throw Object.assign(new Error('a directory'), { code: 'EISDIR' });
    return await fileFromPath(path);
  } catch (error) {
    throw fileError('read', what, path, error);
  }
}

/** The MP4 at `url` streamed to `out`; answers the absolute path. */
export async function download(url: string, out: string): Promise<string> {
  const response = await fetch(url);
  if (!response.ok || !response.body) throw new Error(`download failed: HTTP ${response.status}`);
  const path = resolve(out);
  try {
    await pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), createWriteStream(path));
  } catch (error) {
    // The file system's refusals carry the call that failed; a dropped download does not.
    if ((error as NodeJS.ErrnoException).syscall) throw fileError('write', 'the video to', path, error);
    throw error;
  }
  return path;
}
