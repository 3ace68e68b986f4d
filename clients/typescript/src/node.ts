/**
 * Node-only helpers, kept out of the main entry so that it runs unchanged in browsers and workers.
 */
import { openAsBlob } from 'node:fs';
import { basename } from 'node:path';
import type { NamedFileInput } from './files.js';

/** A file on disk as an upload, read lazily by fetch as it is sent (no copy in memory first). */
export async function fileFromPath(path: string): Promise<NamedFileInput> {
  return { data: await openAsBlob(path), filename: basename(path) };
}
