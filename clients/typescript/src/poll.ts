/**
 * The one polling loop behind waitForJob, waitForDemo and waitForAvatar: read, report, stop when
 * settled, else sleep. The rate limit is per account (120 requests a minute), so the default
 * interval leaves room for other calls; a 429 anyway is waited out by the retrying fetch.
 */
import { WaitTimeoutError } from './errors.js';
import { abortableSleep, type Sleep } from './retry.js';
import { followUntilSettled, type LiveResource, type LiveUpdates } from './live-updates.js';

export interface WaitOptions {
  /**
   * Follow the record over the live-updates WebSocket (docs/live-updates.md) when the client has a
   * WebSocket, polling only if the socket cannot be used or fails. Default true; false always polls.
   */
  live?: boolean;
  /** Time between two reads. Default 1 000 ms. */
  intervalMs?: number;
  /** Give up (WaitTimeoutError) after this long. Default 15 minutes, a generation step's own limit. */
  timeoutMs?: number;
  /** Aborting rejects the wait with the signal's reason and stops a read in flight. */
  signal?: AbortSignal;
}

const WAIT_DEFAULTS = { intervalMs: 1_000, timeoutMs: 15 * 60_000 } as const;

async function pollUntil<T>(
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

/** Which record a wait follows on the socket, and the socket's way (none: poll). */
export interface LiveTarget {
  live: LiveUpdates | undefined;
  resource: LiveResource;
  id: number;
}

/**
 * Waits on the live-updates socket while it works, then polls for whatever time is left: the socket's
 * failure (no WebSocket, a refused ticket, a dropped connection) costs nothing but the switch.
 */
export async function waitUntil<T>(
  target: LiveTarget,
  read: (signal: AbortSignal | undefined) => Promise<T>,
  settled: (value: T) => boolean,
  options: WaitOptions & { what: string; onValue?: (value: T) => void; sleep?: Sleep },
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? WAIT_DEFAULTS.timeoutMs;
  const deadline = Date.now() + timeoutMs;
  if (target.live && options.live !== false) {
    const onValue = options.onValue ?? (() => undefined);
    const followed = await followUntilSettled<T>(target.live, { ...target, settled, onValue, deadline, what: options.what, signal: options.signal });
    if (followed !== undefined) return followed;
  }
  return pollUntil(read, settled, { ...options, timeoutMs: Math.max(0, deadline - Date.now()) });
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
