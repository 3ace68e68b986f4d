/**
 * Made once per wiring, on first use: an engine keeps its client and the key it fetched. A failed
 * load (a bad setting, a missing module) is tried again on the next call instead of being kept.
 */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () =>
    (made ??= make().catch((error: unknown) => {
      made = undefined;
      throw error;
    }));
}
