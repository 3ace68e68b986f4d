/**
 * Waits for `work`, but no longer than `ms`: for shutdown and start-up waits that must not hang on a
 * step that never returns. The timer is unref'd so it keeps no process alive.
 */
export async function waitAtMost(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise((r) => (timer = setTimeout(r, ms).unref()))]);
  clearTimeout(timer);
}
