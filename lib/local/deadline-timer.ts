/**
 * Deadlines as far away as the state machine allows (a preview waits 30 days). Node's timers overflow
 * past 2^31-1 ms (about 24.8 days) and then fire at once, so a far deadline is reached through a chain
 * of unref'd timers, each at most MAX_TIMER_MS.
 */

/** The longest delay one Node timer can hold. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Calls `onFire` at `atMs` (epoch ms), however far away: one unref'd timer at a time, each at most
 * MAX_TIMER_MS. Returns a handle to move the deadline earlier or cancel it.
 */
export function deadlineTimer(atMs: number, onFire: () => void): { tighten(atMs: number): void; cancel(): void } {
  let deadline = atMs;
  let timer: NodeJS.Timeout | undefined;
  let done = false;
  const arm = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (done || deadline === Infinity) return;
    const left = deadline - Date.now();
    if (left <= 0) {
      done = true;
      onFire();
      return;
    }
    timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
    timer.unref();
  };
  arm();
  return {
    tighten(atMs) {
      if (done || !(atMs < deadline)) return;
      deadline = atMs;
      arm();
    },
    cancel() {
      done = true;
      if (timer) clearTimeout(timer);
    },
  };
}
