/**
 * The service's warnings and errors, held back from the test output (test/support/quiet-logs.ts) so a
 * failing test can show the ones about what it waited for: a job that failed in CI says why.
 */
const KEPT = 500;
/**
 * On the global, not in the module: jest evaluates this module twice per test file (once for the setup
 * file, once for the suite), and a string key because a Symbol.for key did not reach the second.
 */
const HELD = '__reactionStudioHeldServiceLogs';
type WithHeld = typeof globalThis & { [HELD]?: string[] };

/** Starts holding; service log lines then go here instead of to the output. */
export function holdServiceLogs(): void {
  (globalThis as WithHeld)[HELD] ??= [];
}

/** Keeps a line if logs are held and it is one of the service's (Powertools' JSON); true when kept. */
export function heldLine(chunk: unknown): boolean {
  const held = (globalThis as WithHeld)[HELD];
  if (!held || typeof chunk !== 'string' || !chunk.startsWith('{"level":')) return false;
  held.push(chunk.trimEnd());
  if (held.length > KEPT) held.splice(0, held.length - KEPT);
  return true;
}

/** The held lines about one job (by its id) logged between two instants, oldest first. */
export function heldLogsAboutJob(jobId: number, between: { from: string; to: string }): string[] {
  const from = Date.parse(between.from) - 1000;
  const to = Date.parse(between.to) + 1000;
  return ((globalThis as WithHeld)[HELD] ?? []).filter((line) => {
    if (!line.includes(`"jobId":${jobId},`) && !line.includes(`"job_id":${jobId},`)) return false;
    const at = Date.parse(/"timestamp":"([^"]+)"/.exec(line)?.[1] ?? '');
    return at >= from && at <= to;
  });
}
