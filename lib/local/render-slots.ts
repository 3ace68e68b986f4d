/**
 * The local runner's render slots: at most `size` render steps at once, and when they are all taken,
 * the next free one goes to the OLDEST job waiting (creation time, then account and job id), not to
 * the step that asked first. A job further along (waiting to compose) is older than the burst behind
 * it, so it never waits for the newer jobs' generation, and a batch streams finished videos out from
 * its first seconds instead of finishing them all together at the end.
 *
 * The age is the job's, from its record, so a job resumed after a restart keeps its place.
 *
 * Ours, not p-queue: its priority is one number fixed when a task is queued, and it cannot tell a
 * waiting step its place in line, which the job's queue_position shows.
 */

/** A job's place in line: older first. */
export interface JobAge {
  createdAtMs: number;
  accountId: number;
  jobId: number;
}

const olderFirst = (a: JobAge, b: JobAge) => a.createdAtMs - b.createdAtMs || a.accountId - b.accountId || a.jobId - b.jobId;

/** A waiting step's position changed: 1 is next in line; null once it holds a slot or gave up. */
export type PositionListener = (key: string, position: number | null) => void;

interface Waiter {
  key: string;
  age: JobAge;
  grant: () => void;
}

export class SlotsStopped extends Error {
  constructor() {
    super('The local job runner stopped');
    this.name = 'Local.ExecutionStopped';
  }
}

export class RenderSlots {
  private used = 0;
  /** Kept sorted, oldest first. */
  private readonly queue: Waiter[] = [];
  /** The position each waiting key was last told, so listeners hear only changes. */
  private readonly told = new Map<string, number>();

  constructor(
    private readonly size: number,
    private readonly onPosition: PositionListener = () => undefined,
  ) {}

  /** True when a step asking now would have to wait (the caller can skip looking up its age). */
  get full(): boolean {
    return this.used >= this.size;
  }

  /** Positions of the waiting steps by key (diagnostics and tests). */
  positions(): Map<string, number> {
    return new Map(this.queue.map((w, i) => [w.key, i + 1]));
  }

  /**
   * Resolves with a release function once a slot is granted to `key`; rejects with SlotsStopped if
   * `signal` aborts while it waits. `key` names one waiting step (one per job at a time).
   */
  acquire(key: string, age: JobAge, signal: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(new SlotsStopped());
      const take = () => {
        this.used++;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.used--;
          this.grantNext();
        });
      };
      if (this.used < this.size && this.queue.length === 0) return take();

      const waiter: Waiter = {
        key,
        age,
        grant: () => {
          signal.removeEventListener('abort', onAbort);
          take();
        },
      };
      const onAbort = () => {
        const at = this.queue.indexOf(waiter);
        if (at < 0) return;
        this.queue.splice(at, 1);
        this.forget(key);
        this.announce();
        reject(new SlotsStopped());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const at = this.queue.findIndex((w) => olderFirst(age, w.age) < 0);
      this.queue.splice(at < 0 ? this.queue.length : at, 0, waiter);
      this.announce();
    });
  }

  private grantNext(): void {
    const next = this.queue.shift();
    if (!next) return;
    this.forget(next.key);
    next.grant();
    this.announce();
  }

  private forget(key: string): void {
    if (this.told.delete(key)) this.onPosition(key, null);
  }

  private announce(): void {
    this.queue.forEach((w, i) => {
      if (this.told.get(w.key) === i + 1) return;
      this.told.set(w.key, i + 1);
      this.onPosition(w.key, i + 1);
    });
  }
}
