/**
 * Time in tests: waiting for a condition, and keeping a burst inside one rate-limit minute.
 *
 * The per-minute limits are sliding windows made of two fixed windows; a burst that straddles the
 * boundary between them is approximated, not counted exactly. Tests that assert exact counts start
 * their burst well inside a minute.
 */
export async function awayFromMinuteBoundary(burstMs = 10_000): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute + burstMs < 59_000) return;
  await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 500));
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
