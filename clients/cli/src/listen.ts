/**
 * `webhooks listen --forward-to URL`: the account's events forwarded to a local URL, as `stripe
 * listen` does. The service delivers webhooks only to public https URLs, which a laptop's localhost is
 * not, so no endpoint is made: the CLI follows GET /webhooks/events (`after` its last event) and POSTs
 * each new event to the URL, signed by the Standard Webhooks scheme with a secret of its own (kept in
 * the config file, so the local app keeps one secret across runs). Only events raised after it
 * started are forwarded; each once, with no retries.
 */
import type { ApiError } from '@reaction-studio/client';

/** An event as GET /webhooks/events lists it, the body its deliveries carry. */
export interface ListedEvent {
  id: string;
  type: string;
  created_at: string;
  data: unknown;
}

/** What the local URL answered, or why it did not. */
export type ForwardResult = { status: number; durationMs: number } | { error: string; durationMs: number };

export interface ListenPorts {
  /** One page of events: after `after`, or the newest `limit` without it; `next_after` the cursor to pass on. */
  events(after: string | undefined, limit: number): Promise<{ data: ListedEvent[]; next_after: string | null }>;
  /** Sends one event, signed; never throws. */
  forward(event: ListedEvent): Promise<ForwardResult>;
  /** Waits `ms`, or less when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** Told each forwarded event and what came of it, and each poll that failed (listening goes on). */
  forwarded(event: ListedEvent, result: ForwardResult): void;
  pollFailed(error: unknown): void;
}

export interface ListenOptions {
  intervalMs: number;
  /** Only these types; undefined: every type. */
  types?: readonly string[];
  /** Aborted by Ctrl-C: listening ends after the event in hand. */
  signal: AbortSignal;
  /** Called once the starting point is known: from then on every new event is forwarded. */
  ready(): void;
}

/** Events per page; a full page is followed at once by the next. */
const PAGE = 100;

/** Follows the account's events until `signal` aborts; throws only when the key is refused (401/403). */
export async function followEvents(ports: ListenPorts, options: ListenOptions): Promise<void> {
  const { signal } = options;
  // Start after the newest event there is: only what happens from now on is forwarded.
  let after = (await ports.events(undefined, 1)).next_after ?? undefined;
  options.ready();
  while (!signal.aborted) {
    let full = false;
    try {
      const page = await ports.events(after, PAGE);
      for (const event of page.data) {
        if (signal.aborted) return;
        if (!options.types || options.types.includes(event.type)) ports.forwarded(event, await ports.forward(event));
        after = event.id;
      }
      after = page.next_after ?? after;
      full = page.data.length === PAGE;
    } catch (error) {
      if (refused(error)) throw error;
      ports.pollFailed(error);
    }
    if (!full) await ports.sleep(options.intervalMs, signal);
  }
}

const refused = (error: unknown) => [401, 403].includes((error as Partial<ApiError> | null)?.status ?? 0);

/** A POST of the event's body to `url`, signed by `sign`, within 10 s like the service's own attempts. */
export async function forwardTo(url: string, event: ListedEvent, sign: (body: string, id: string) => Record<string, string>, now: () => number = performance.now.bind(performance)): Promise<ForwardResult> {
  const body = JSON.stringify(event);
  const start = now();
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'reaction-studio-cli (webhooks listen)', ...sign(body, event.id) },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer().catch(() => undefined);
    return { status: response.status, durationMs: Math.round(now() - start) };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { error: cause?.code ?? cause?.message ?? (error as Error).message, durationMs: Math.round(now() - start) };
  }
}

/** Sleeps `ms`, ended early by `signal`. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
