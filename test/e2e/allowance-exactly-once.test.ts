/**
 * The allowance is charged exactly once per delivered preview or video, whatever the clients race
 * or the job pipeline drops: end to end through the local HTTP server, with the real ASL, pipeline
 * steps, DynamoDB Local and the local engine. Faults go in by switching the stack's job runner to one that fails.
 */
import { randomUUID } from 'node:crypto';
import type { JobRunner } from '#ports/job-runner';
import { expectError, startTestStack, type ApiClient, type TestStack } from '#test-support/local-stack';
import { waitForJob } from '#test-support/jobs';

const JOB_TEST_MS = 300_000;
let t: TestStack;

beforeAll(async () => {
  t = await startTestStack();
}, 240_000);

afterEach(async () => {
  t.runner.reset();
  await t?.stack.jobs.idle();
});

afterAll(() => t?.stop());

async function customer() {
  const account = await t.newAccount({ plan: 'pro' });
  const product = await account.api.post('/products', { name: 'Glow serum' });
  expect(product.status).toBe(201);
  return { ...account, productId: product.body.data.id as number };
}

const allowance = async (api: ApiClient) => (await api.get('/usage')).body.data.allowance as { used: number; reserved: number };

async function previewReady(api: ApiClient, productId: number): Promise<number> {
  const created = await api.post('/videos', { product_id: productId, method: 'prompt', mode: 'preview', prompt: 'shocked by the price' });
  expect(created.status).toBe(202);
  await waitForJob(api, created.body.data.id, ['preview_ready']);
  return created.body.data.id;
}

/** The local runner with one of its calls failing the next `times` times, as an unreachable Step Functions would. */
function flakyRunner(call: keyof JobRunner, times = 1): JobRunner {
  const real = t.stack.jobs;
  let failures = times;
  const fail = () => {
    if (failures-- > 0) throw new Error('the job pipeline could not be reached');
  };
  return {
    start: async (input) => (call === 'start' ? (fail(), real.start(input)) : real.start(input)),
    sendDecision: async (token, decision) => (call === 'sendDecision' ? (fail(), real.sendDecision(token, decision)) : real.sendDecision(token, decision)),
  };
}

describe('concurrent decisions on one preview', () => {
  test(
    'six concurrent regenerates: one 202, five 409, and exactly one more unit is used',
    async () => {
      const { api, productId } = await customer();
      const jobId = await previewReady(api, productId);
      expect(await allowance(api)).toEqual(expect.objectContaining({ used: 1, reserved: 0 }));

      const answers = await Promise.all(Array.from({ length: 6 }, () => api.post(`/videos/jobs/${jobId}/regenerate`, {})));
      expect(answers.map((r) => r.status).sort()).toEqual([202, 409, 409, 409, 409, 409]);
      for (const refused of answers.filter((r) => r.status === 409)) expectError(refused, 409, 'conflict');
      const during = await allowance(api);
      expect(during.used + during.reserved).toBe(2);

      const { job } = await waitForJob(api, jobId, ['preview_ready']);
      expect(job).toMatchObject({ regenerations: 1, charged_units: 2 });
      expect(await allowance(api)).toEqual(expect.objectContaining({ used: 2, reserved: 0 }));
    },
    JOB_TEST_MS,
  );

  test(
    'approves and regenerates racing: one wins, and only a winning regenerate adds a unit',
    async () => {
      const { api, productId } = await customer();
      const jobId = await previewReady(api, productId);
      const answers = await Promise.all([
        api.post(`/videos/jobs/${jobId}/approve`, {}),
        api.post(`/videos/jobs/${jobId}/regenerate`, {}),
        api.post(`/videos/jobs/${jobId}/approve`, {}),
        api.post(`/videos/jobs/${jobId}/regenerate`, {}),
      ]);
      const winners = answers.map((r, i) => (r.status === 202 ? i : -1)).filter((i) => i >= 0);
      expect(winners).toHaveLength(1);
      expect(answers.filter((r) => r.status === 409)).toHaveLength(3);
      const regenerated = winners[0]! % 2 === 1;
      const { job } = await waitForJob(api, jobId, [regenerated ? 'preview_ready' : 'done']);
      expect(job.charged_units).toBe(regenerated ? 2 : 1);
      expect(await allowance(api)).toEqual(expect.objectContaining({ used: regenerated ? 2 : 1, reserved: 0 }));
    },
    JOB_TEST_MS,
  );
});

describe('a decision the job pipeline does not take', () => {
  test(
    'a regenerate whose hand-over fails is 503: the job is back at preview_ready, no unit is held, and a retry regenerates',
    async () => {
      const { api, accountId, productId } = await customer();
      const jobId = await previewReady(api, productId);
      const before = await t.stack.dependencies.jobs.get(accountId, jobId);

      t.runner.use(flakyRunner('sendDecision'));
      const refused = await api.post(`/videos/jobs/${jobId}/regenerate`, { prompt: 'laughing so hard' });
      expectError(refused, 503, 'upstream_unavailable');
      expect(refused.headers.get('retry-after')).toBe('5');
      const after = await t.stack.dependencies.jobs.get(accountId, jobId);
      expect(after).toMatchObject({ status: 'preview_ready', regenerations: 0, task_token: before!.task_token, prompt: before!.prompt });
      expect(await t.stack.dependencies.ledger.entry({ accountId, jobId, chargeNumber: 2 })).toBeUndefined();
      expect(await allowance(api)).toEqual(expect.objectContaining({ used: 1, reserved: 0 }));

      const retried = await api.post(`/videos/jobs/${jobId}/regenerate`, { prompt: 'laughing so hard' });
      expect(retried.status).toBe(202);
      const { job } = await waitForJob(api, jobId, ['preview_ready']);
      expect(job).toMatchObject({ regenerations: 1, charged_units: 2, prompt: 'laughing so hard' });
      expect(await allowance(api)).toEqual(expect.objectContaining({ used: 2, reserved: 0 }));
    },
    JOB_TEST_MS,
  );

  test(
    'an approve whose hand-over fails is 503 and the job is back at preview_ready; a retry finishes it',
    async () => {
      const { api, accountId, productId } = await customer();
      const jobId = await previewReady(api, productId);
      t.runner.use(flakyRunner('sendDecision'));
      expectError(await api.post(`/videos/jobs/${jobId}/approve`, {}), 503, 'upstream_unavailable');
      expect(await t.stack.dependencies.jobs.get(accountId, jobId)).toMatchObject({ status: 'preview_ready', stage: 'awaiting_approval', task_token: expect.any(String) });

      expect((await api.post(`/videos/jobs/${jobId}/approve`, {})).status).toBe(202);
      const { job } = await waitForJob(api, jobId, ['done']);
      expect(job.charged_units).toBe(1);
      expect(await allowance(api)).toEqual(expect.objectContaining({ used: 1, reserved: 0 }));
    },
    JOB_TEST_MS,
  );

  test(
    'a job that cannot be started is 503 with nothing left behind: no job, no unit, and the same Idempotency-Key works later',
    async () => {
      const { api, accountId, productId } = await customer();
      const key = randomUUID();
      const body = { product_id: productId, method: 'prompt', prompt: 'amazed by the colour' };
      t.runner.use(flakyRunner('start'));
      const refused = await api.send('POST', '/videos', { json: body, headers: { 'idempotency-key': key } });
      expectError(refused, 503, 'upstream_unavailable');
      expect(await allowance(api)).toEqual(expect.objectContaining({ used: 0, reserved: 0 }));

      const retried = await api.send('POST', '/videos', { json: body, headers: { 'idempotency-key': key } });
      expect(retried.status).toBe(202);
      const { job } = await waitForJob(api, retried.body.data.id, ['done']);
      expect(job.charged_units).toBe(1);
      expect(await t.stack.dependencies.jobs.get(accountId, job.id - 1)).toBeUndefined();
      expect(await allowance(api)).toEqual(expect.objectContaining({ used: 1, reserved: 0 }));
    },
    JOB_TEST_MS,
  );
});
