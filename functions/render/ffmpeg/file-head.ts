import { open } from 'node:fs/promises';

/** The first bytes of a file: what a file type is judged by, never its name. */
export async function readFileHead(path: string, bytes = 512): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
