/**
 * The one polling loop behind waitForJob, waitForDemo and waitForAvatar: read, report, stop when
 * settled, else sleep. The rate limit is per account (120 requests a minute), so the default
 * interval leaves room for other calls; a 429 anyway is waited out by the retrying fetch.
 */
import { WaitTimeoutError } from './errors.js';
import { abortableSleep, type Sleep } from './retry.js';

export interface WaitOptions {
  /** Time between two reads. Default 1 000 ms. */
  intervalMs?: number;
  /** Give up (WaitTimeoutError) after this long. Default 15 minutes, a generation step's own limit. */
  timeoutMs?: number;
  /** Aborting rejects the wait with the signal's reason and stops a read in flight. */
  signal?: AbortSignal;
}

const WAIT_DEFAULTS = { intervalMs: 1_000, timeoutMs: 15 * 60_000 } as const;

export async function pollUntil<T>(
  read: (signal: AbortSignal | undefined) => Promise<T>,
  settled: (value: T) => boolean,
  options: WaitOptions & { what: string; onValue?: (value: T) => void; sleep?: Sleep },
): Promise<T> {
  const intervalMs = options.intervalMs ?? WAIT_DEFAULTS.intervalMs;
  const timeoutMs = options.timeoutMs ?? WAIT_DEFAULTS.timeoutMs;
  const sleep = options.sleep ?? abortableSleep;
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    options.signal?.throwIfAborted();
    last = await read(options.signal);
    options.onValue?.(last);
    if (settled(last)) return last;
    const left = deadline - Date.now();
    if (left <= 0) throw new WaitTimeoutError(`${options.what} did not settle within ${timeoutMs} ms`, last);
    await sleep(Math.min(intervalMs, left), options.signal);
  }
}

/**
 * A poll interval in milliseconds from a setting's text (the CLI's and the MCP server's environment):
 * unset or empty is undefined (the default applies), anything but a positive whole number is named.
 */
export function pollIntervalMsFrom(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^[1-9]\d{0,6}$/.test(raw)) throw new Error(`${name} must be a whole number of milliseconds, not ${raw}`);
  return Number(raw);
}
