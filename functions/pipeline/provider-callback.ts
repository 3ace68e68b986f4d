/**
 * A round generating on a hosted engine by callback: its provider wait (the secret its webhook URL
 * carries, kept on the job before anything is submitted) and the URL handed to the provider.
 */
import type { Ports } from '#ports/ports';
import type { GenerationOptions } from '#ports/engine';
import type { StoredJob } from '#domain/job-execution';
import { callbackTicket, providerWaitFor, type ProviderWait } from '#domain/provider-wait';
import { API_PREFIX } from '#functions/routes';

/** Where fal's completion webhook for a job goes (routes.ts: POST /engines/fal/callbacks/{ticket}). */
const falCallbackPath = (ticket: string) => `${API_PREFIX}/engines/fal/callbacks/${ticket}`;

/**
 * The round's provider wait and the callback a hosted engine is given, or nothing where the stack has
 * no address for webhooks (the step then waits for the provider itself).
 */
export function callbackFor(deps: Pick<Ports, 'providerCallbackUrl'>, job: StoredJob): { wait: ProviderWait; callback: NonNullable<GenerationOptions['callback']> } | null {
  const base = deps.providerCallbackUrl?.();
  if (!base) return null;
  const wait = providerWaitFor(job.regenerations, job.provider_wait);
  return { wait, callback: { webhookUrl: `${base.replace(/\/+$/, '')}${falCallbackPath(callbackTicket(job.account_id, job.id, wait))}` } };
}
