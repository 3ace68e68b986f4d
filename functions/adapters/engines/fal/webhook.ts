/**
 * fal.ai completion webhooks (`?fal_webhook=<url>` on submit). fal POSTs
 * `{request_id, gateway_request_id, status: "OK"|"ERROR", payload, error}` when a request ends and
 * redelivers for up to 2 h, and its signature headers are not documented here, so the callback is
 * only a hint: the payload is never trusted as the result. A generation waiting on that request id
 * (on the same `FalWebhooks`, which the wiring shares between its engines) is woken to fetch its `response_url` at once instead of at its next poll;
 * polling stays the source of truth, so a lost or forged webhook changes nothing but timing.
 *
 * Idempotent per request_id: a redelivery is acknowledged and does nothing.
 *
 * A job waiting by callback (GenerationOptions.callback) is resumed by the same body at its own route
 * (use-cases/provider-callback.ts, domain/schemas/provider-callback.ts), where the URL's ticket
 * proves the caller.
 */
import * as z from 'zod/mini';
import { ENGLISH_ERRORS } from './errors';

const FalWebhookSchema = z.looseObject({
  request_id: z.string().check(z.minLength(1), z.maxLength(200)),
  gateway_request_id: z.nullish(z.string().check(z.maxLength(200))),
  status: z.enum(['OK', 'ERROR']),
  payload: z.optional(z.unknown()),
  error: z.nullish(z.string()),
});

export type FalWebhookOutcome =
  | { ok: true; requestId: string; status: 'OK' | 'ERROR'; duplicate: boolean; woke: number }
  | { ok: false; error: string };

type Waiter = () => void;

/** A webhook body (parsed JSON, or its raw text) as fal sends it, or why it is not one. */
function parseFalWebhook(body: unknown): { ok: true; requestId: string; status: 'OK' | 'ERROR' } | { ok: false; error: string } {
  let value = body;
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    try {
      value = JSON.parse(body.toString());
    } catch {
      return { ok: false, error: 'webhook body is not JSON' };
    }
  }
  const parsed = FalWebhookSchema.safeParse(value, { error: ENGLISH_ERRORS });
  if (!parsed.success) return { ok: false, error: `webhook body is not a fal.ai completion: ${z.prettifyError(parsed.error)}` };
  return { ok: true, requestId: parsed.data.request_id, status: parsed.data.status };
}

const SEEN_LIMIT = 5_000;

/** Who waits on which fal request, and which requests' webhooks already came. */
export class FalWebhooks {
  private readonly waiters = new Map<string, Set<Waiter>>();
  /** request ids already handled, oldest first (Map keeps insertion order), bounded. */
  private readonly seen = new Map<string, number>();

  /**
   * Validates a webhook body (parsed JSON, or its raw text) and wakes whoever waits on its request.
   * An HTTP handler answers 200 for `ok: true` (duplicates included, so fal stops redelivering) and
   * 400 with `error` otherwise.
   */
  handle(body: unknown): FalWebhookOutcome {
    const parsed = parseFalWebhook(body);
    if (!parsed.ok) return parsed;
    const { requestId, status } = parsed;
    if (this.seen.has(requestId)) return { ok: true, requestId, status, duplicate: true, woke: 0 };
    this.remember(requestId);
    const waiting = this.waiters.get(requestId);
    this.waiters.delete(requestId);
    for (const wake of waiting ?? []) wake();
    return { ok: true, requestId, status, duplicate: false, woke: waiting?.size ?? 0 };
  }

  /**
   * Registers interest in a request's webhook. `hinted` resolves when it arrives (at once if it
   * already did); `dispose` forgets the registration.
   */
  await(requestId: string): { hinted: Promise<void>; dispose: () => void } {
    let wake!: Waiter;
    const hinted = new Promise<void>((resolve) => {
      wake = resolve;
    });
    if (this.seen.has(requestId)) {
      wake();
      return { hinted, dispose: () => undefined };
    }
    let set = this.waiters.get(requestId);
    if (!set) this.waiters.set(requestId, (set = new Set()));
    set.add(wake);
    return {
      hinted,
      dispose: () => {
        const current = this.waiters.get(requestId);
        current?.delete(wake);
        if (current?.size === 0) this.waiters.delete(requestId);
      },
    };
  }

  private remember(requestId: string): void {
    this.seen.set(requestId, Date.now());
    while (this.seen.size > SEEN_LIMIT) {
      const oldest = this.seen.keys().next().value;
      if (oldest === undefined) break;
      this.seen.delete(oldest);
    }
  }
}
