/**
 * Signing secrets and their rotation: a rotated-out secret keeps signing beside the new one for an
 * overlap, so a receiver can switch to the new secret whenever it likes within it (Standard Webhooks
 * lets `webhook-signature` carry several space-separated signatures; any one that verifies will do).
 */
import type { WebhookEndpoint } from './webhooks';

/** How long the replaced secret keeps signing: 24 hours unless asked, at most 7 days; 0 ends it at once. */
export const SECRET_OVERLAP_S = { default: 24 * 3600, max: 7 * 24 * 3600 } as const;

export type EndpointSecrets = Pick<WebhookEndpoint, 'secret' | 'previous_secret' | 'previous_secret_expires_at'>;

/**
 * The secrets after a rotation to `next`: the current one becomes the previous one for `overlapS`.
 * Only one previous secret is kept, so rotating again ends an earlier overlap at once.
 */
export function rotatedSecrets(current: Pick<WebhookEndpoint, 'secret'>, next: string, overlapS: number, now: Date): EndpointSecrets {
  if (overlapS <= 0) return { secret: next, previous_secret: null, previous_secret_expires_at: null };
  return { secret: next, previous_secret: current.secret, previous_secret_expires_at: new Date(now.getTime() + overlapS * 1000).toISOString() };
}

/** The secrets an attempt sent at `at` is signed with: the current one first, then a previous one still in its overlap. */
export function signingSecrets(endpoint: EndpointSecrets, at: Date): string[] {
  const { secret, previous_secret: previous, previous_secret_expires_at: until } = endpoint;
  return previous && until && Date.parse(until) > at.getTime() ? [secret, previous] : [secret];
}
