/** Time in tests: waiting for a condition, and keeping a burst inside one rate-limit minute. */
import type { Ports } from '#ports/ports';
const { floor } = Math;

/**
 * `built` with its rate limiter deciding every request at one instant, the middle of the minute the
 * stack started in, whatever the caller's clock says (a stack's `adjustDependencies`). The per-minute
 * limits are sliding windows made of two fixed windows; a burst that straddles the boundary between
 * them is approximated, not counted exactly. On a stopped clock every request falls in one window, so
 * a suite asserting exact counts holds whenever it runs.
 */
export function rateLimitsOnStoppedClock(built: Ports): Ports {
  const limiter = built.rateLimits;
  const at = floor(Date.now() / 60_000) * 60_000 + 30_000;
  return {
    ...built,
    rateLimits: {
      consume: (rule) => limiter.consume(rule, at),
      consumeAll: (rules) => limiter.consumeAll(rules, at),
      peek: (rule) => limiter.peek(rule, at),
    },
  };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `check` holds, looking every 5 ms; throws past `timeoutMs`. */
export async function eventually(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await pause(5);
  }
}
