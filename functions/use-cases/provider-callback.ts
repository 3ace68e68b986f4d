/**
 * A hosted engine's completion webhook resumes the job waiting for it at AwaitProvider
 * (domain/provider-wait.ts). The URL's ticket names the job and carries the round's secret: a ticket
 * that is malformed, names no job, or has the wrong secret is not found, and nothing is read beyond
 * the job. The body only says which request ended: the next step asks the provider for the result.
 */
import type { Ports } from '#ports/ports';
import { TaskTokenInvalid } from '#ports/job-runner';
import { conflict, notFound } from '#domain/errors';
import { parseCallbackTicket, secretMatches } from '#domain/provider-wait';

type CallbackDeps = Pick<Ports, 'jobs' | 'jobRunner'>;

const IN_FLIGHT = new Set(['queued', 'processing']);

export async function receiveProviderCallback(deps: CallbackDeps, ticket: string, requestId: string): Promise<'resumed' | 'ignored'> {
  const named = parseCallbackTicket(ticket);
  if (!named) throw notFound('Provider callback');
  const job = await deps.jobs.get(named.accountId, named.jobId);
  if (!job || !secretMatches(job.provider_wait, named.secret)) throw notFound('Provider callback');
  const wait = job.provider_wait!;
  const round = job.provider_requests?.round === job.regenerations ? job.provider_requests : null;
  const ours = Object.values(round?.slots ?? {}).some((request) => request.requestId === requestId);
  // An earlier round's request, or a job that moved on: nothing waits for it any more.
  if (!ours || wait.round !== job.regenerations || !IN_FLIGHT.has(job.status)) return 'ignored';
  // The step that submitted it is still running (it checks the request before it parks): the
  // provider delivers again, by then to a wait.
  if (!wait.token) throw conflict('The job is not waiting for its provider yet; deliver the callback again');
  try {
    await deps.jobRunner.sendDecision(wait.token, { action: 'provider_ready' });
  } catch (error) {
    // The wait already ended (another request's callback, its timeout): this one is not needed.
    if (error instanceof TaskTokenInvalid) return 'ignored';
    throw error;
  }
  return 'resumed';
}
