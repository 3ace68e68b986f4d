/**
 * What every local-engine method does around its drawing: a private temp dir removed whatever happens,
 * blob reads and writes whose failures say what to do, cancellation, and unexpected failures turned
 * into a retryable engine_failure.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { EngineError } from '#ports/engine';

/** The blob store, as files: the part of the wiring's BlobStore the engine uses. */
export interface BlobFiles {
  putFile(key: string, filePath: string, contentType: string): Promise<void>;
  getToFile(key: string, filePath: string): Promise<void>;
}

export function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new EngineError('cancelled', 'the generation was cancelled', { retryable: false });
}

export async function guard<T>(work: () => Promise<T>, what: string): Promise<T> {
  try {
    return await work();
  } catch (cause) {
    if (cause instanceof EngineError) throw cause;
    throw new EngineError('engine_failure', `${what}; try again`, { retryable: true, cause });
  }
}

export async function withTempDir<T>(parent: string, work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await fsp.mkdtemp(path.join(parent, 'rs-local-engine-'));
  try {
    return await work(dir);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

export async function storeBlob(blobs: BlobFiles, key: string, file: string, contentType: string): Promise<void> {
  try {
    await blobs.putFile(key, file, contentType);
  } catch (cause) {
    throw new EngineError('engine_failure', 'the result could not be stored; try again', { retryable: true, cause });
  }
}

export async function fetchBlob(blobs: BlobFiles, key: string, file: string, what: string): Promise<void> {
  try {
    await blobs.getToFile(key, file);
  } catch (cause) {
    const name = (cause as { name?: string } | null)?.name;
    if (name === 'NoSuchKey' || name === 'NotFound') {
      throw new EngineError('invalid_input', `${what} is missing from storage; upload it again`, { cause });
    }
    throw new EngineError('engine_failure', `${what} could not be read from storage; try again`, { retryable: true, cause });
  }
}
