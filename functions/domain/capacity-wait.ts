/**
 * A render step refused for capacity (Lambda's throttle, or the render function at its reserved
 * concurrency) waits and tries again, shown as the stage `waiting_for_capacity`: the state machine's
 * AwaitCapacity → WaitForCapacity loop. Each wait doubles from 5 s to at most 120 s, drawn at random
 * from its upper half so a burst does not come back at once; after an hour without a render step
 * starting, the job fails with `capacity_unavailable` (its reserved unit released) instead of waiting
 * forever.
 */
export const CAPACITY_WAIT = { firstS: 5, maxS: 120, limitMs: 3_600_000 } as const;

/** The wait in progress, kept on the job until one of its steps starts again. */
export interface CapacityWait {
  /** When the first refusal of this wait was seen (ISO 8601). */
  since: string;
  /** How many waits it has had. */
  waits: number;
}

export type NextCapacityWait = { wait: CapacityWait; waitS: number } | { givesUp: true };

/** The next wait of a job refused for capacity at `now`; `random` draws from [0, 1). */
export function nextCapacityWait(current: CapacityWait | null | undefined, now: Date, random: () => number): NextCapacityWait {
  const since = current?.since ?? now.toISOString();
  if (now.getTime() - Date.parse(since) >= CAPACITY_WAIT.limitMs) return { givesUp: true };
  const waits = current?.waits ?? 0;
  const capS = Math.min(CAPACITY_WAIT.maxS, CAPACITY_WAIT.firstS * 2 ** waits);
  // A Wait state takes whole seconds; the lower half is kept so that no wait is close to none.
  const waitS = Math.max(1, Math.ceil(capS / 2 + (random() * capS) / 2));
  return { wait: { since, waits: waits + 1 }, waitS };
}
