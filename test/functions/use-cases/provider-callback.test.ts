/** A hosted engine's webhook resumes the job waiting for it, and nothing else (use-cases/provider-callback.ts). */
import { receiveProviderCallback } from '#use-cases/provider-callback';
import { TaskTokenInvalid, type JobRunner } from '#ports/job-runner';
import { AppError } from '#domain/errors';
import { callbackTicket } from '#domain/provider-wait';
import { ACCOUNT, pipelineWorld } from '#test-support/pipeline';

const SECRET = 'a'.repeat(43);
const REQUEST = { requestId: 'r-1', statusUrl: 'https://q/s', responseUrl: 'https://q/r', cancelUrl: 'https://q/c' };

async function waitingWorld(token: string | null = 'token-1') {
  const sent: [string, unknown][] = [];
  let refuse = false;
  const jobRunner: JobRunner = {
    start: async () => undefined,
    sendDecision: async (t, decision) => {
      if (refuse) throw new TaskTokenInvalid();
      sent.push([t, decision]);
    },
  };
  const w = pipelineWorld({ jobRunner });
  const job = await w.queuedJob();
  const wait = { round: 0, secret: SECRET, token };
  await w.jobs.update(ACCOUNT, job.id, { status: 'processing', provider_wait: wait, provider_requests: { round: 0, slots: { 'kling#42': REQUEST } } });
  const stored = async () => w.jobs.get(ACCOUNT, job.id);
  return { w, job, sent, ticket: callbackTicket(ACCOUNT, job.id, wait), stored, refuseTokens: () => (refuse = true) };
}

const refusal = (promise: Promise<unknown>) => promise.then(() => null, (e: unknown) => (e instanceof AppError ? e.code : e));

test("the job's own request, with the round's secret, sends ProviderReady back through the wait's token", async () => {
  const { w, sent, ticket } = await waitingWorld();
  expect(await receiveProviderCallback(w.deps, ticket, 'r-1')).toBe('resumed');
  expect(sent).toEqual([['token-1', { action: 'provider_ready' }]]);
});

test('a wrong secret, another job or a malformed ticket is not found, and nothing is sent or written', async () => {
  const { w, job, sent, stored } = await waitingWorld();
  const before = await stored();
  for (const ticket of [`${ACCOUNT}.${job.id}.${'b'.repeat(43)}`, `${ACCOUNT}.${job.id + 1}.${SECRET}`, `${ACCOUNT}.${job.id}.${SECRET}x`, `${ACCOUNT}.${job.id}`, '', '../../etc']) {
    expect(await refusal(receiveProviderCallback(w.deps, ticket, 'r-1'))).toBe('not_found');
  }
  expect(sent).toEqual([]);
  expect(await stored()).toEqual(before);
});

test("another request than the round's is acknowledged and resumes nothing", async () => {
  const { w, sent, ticket } = await waitingWorld();
  expect(await receiveProviderCallback(w.deps, ticket, 'r-other')).toBe('ignored');
  expect(sent).toEqual([]);
});

test('while the submitting step still runs (no token yet) the callback is refused with 409, so the provider delivers it again', async () => {
  const { w, sent, ticket } = await waitingWorld(null);
  expect(await refusal(receiveProviderCallback(w.deps, ticket, 'r-1'))).toBe('conflict');
  expect(sent).toEqual([]);
});

test('a wait already over (another callback, its timeout) makes the callback ignored, not an error', async () => {
  const { w, ticket, refuseTokens } = await waitingWorld();
  refuseTokens();
  expect(await receiveProviderCallback(w.deps, ticket, 'r-1')).toBe('ignored');
});

test('a job that ended resumes nothing', async () => {
  const { w, job, sent, ticket } = await waitingWorld();
  await w.jobs.update(ACCOUNT, job.id, { status: 'failed' });
  expect(await receiveProviderCallback(w.deps, ticket, 'r-1')).toBe('ignored');
  expect(sent).toEqual([]);
});
