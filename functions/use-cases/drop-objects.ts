/**
 * The objects a use case stores before the write that records them (an image, a clip, an audio file):
 * when that write fails, they go again, best effort (an orphaned object costs storage, not
 * correctness), and the write's own error is what the caller sees.
 */
import type { Ports } from '#ports/ports';

/** Runs `write`; if it throws, deletes `keys` (a failed delete is ignored) and rethrows its error. */
export async function dropObjectsIfFails<T>(blobs: Pick<Ports['blobs'], 'deleteKeys'>, keys: readonly string[], write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (keys.length > 0) await blobs.deleteKeys(keys).catch(() => undefined);
    throw error;
  }
}
