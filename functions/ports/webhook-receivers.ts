/**
 * The receivers' side: whether a URL may receive events (its host resolves to allowed addresses only)
 * and sending one attempt to it. Redirects are never followed; the address is checked on every attempt.
 */
import type { AttemptResult } from '#domain/webhooks';

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface WebhookReceivers {
  /** Why events may not be sent to this URL (a private address, a name that does not resolve); undefined when they may. */
  vet(url: string): Promise<string | undefined>;
  /** One POST, within `timeoutMs`; never throws. */
  send(request: WebhookRequest, timeoutMs: number): Promise<AttemptResult>;
}
