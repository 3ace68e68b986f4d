/**
 * Publishes each waiting job's place in the render queue on its record (`queue_position`), so a
 * client polling the job can tell a queue from a hang. A burst moves every position at each grant,
 * so writes are coalesced per job: one in flight at a time, the latest value written after it, and
 * nothing written when the record already holds the value (most jobs never wait and cost nothing).
 */

export interface QueuePositions {
  /** The value the record holds now (a resumed job may carry a stale position from before a restart). */
  known(key: string, position: number | null): void;
  /** The value the record should hold; written in the background. */
  set(key: string, position: number | null): void;
  /** Resolves once the record holds the last value set (or its write failed). */
  settled(key: string): Promise<void>;
}

interface Entry {
  written: number | null;
  wanted: number | null;
  writing?: Promise<void>;
}

export function queuePositions(
  write: (key: string, position: number | null) => Promise<void>,
  onError: (key: string, error: unknown) => void = () => undefined,
): QueuePositions {
  const entries = new Map<string, Entry>();

  const flush = (key: string, entry: Entry): Promise<void> => {
    if (entry.writing) return entry.writing;
    if (entry.written === entry.wanted) {
      // Settled at null: nothing left to remember for this job.
      if (entry.wanted === null) entries.delete(key);
      return Promise.resolve();
    }
    const value = entry.wanted;
    entry.writing = write(key, value)
      .then(
        () => {
          entry.written = value;
        },
        (error: unknown) => {
          // Given up on, so a failing store cannot hold a step back; the next change tries again.
          entry.written = value;
          onError(key, error);
        },
      )
      .then(() => {
        entry.writing = undefined;
        return flush(key, entry);
      });
    return entry.writing;
  };

  return {
    known(key, position) {
      const entry = entries.get(key);
      if (entry) entry.written = position;
      else if (position !== null) entries.set(key, { written: position, wanted: position });
    },
    set(key, position) {
      let entry = entries.get(key);
      if (!entry) {
        if (position === null) return;
        entry = { written: null, wanted: position };
        entries.set(key, entry);
      }
      entry.wanted = position;
      void flush(key, entry);
    },
    settled(key) {
      const entry = entries.get(key);
      return entry ? flush(key, entry) : Promise.resolve();
    },
  };
}
