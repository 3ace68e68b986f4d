/**
 * Variant batches end to end (docs/decisions.md, Video batches): POST /videos/batch through the local
 * HTTP server and the in-process state machine with the real pipeline (local engine, ffmpeg, DynamoDB
 * Local, s3rver). One saved reaction replayed under several hooks renders each variant with no
 * generation and one encode (its compose); refusals leave nothing written; the allowance is taken for
 * the whole batch or not at all, also when batches race. Suites that only need jobs to exist hold
 * them with a runner that does nothing, so they keep their unit without rendering.
 */
import { randomUUID } from 'node:crypto';
import type { Ports } from '#ports/ports';
import type { Engines } from '#ports/engines';
import { RecordingMetrics } from '#test-doubles/memory/metrics';
import { expectError, startTestStack, type ApiClient, type TestStack } from '#test-support/local-stack';
import { productWithDemo, waitForJob } from '#test-support/jobs';

const JOB_TEST_MS = 300_000;
let t: TestStack;
/** Reaction engines handed out to the pipeline: one per generation. */
let reactionEngineCalls = 0;
const metrics = new RecordingMetrics();

/** The stack's own engines and metrics, counted on the way through. */
function counting(built: Ports): Ports {
  const engines = built.engines;
  const counted: Engines = {
    avatar: () => engines.avatar(),
    inlineAvatar: () => engines.inlineAvatar(),
    get avatarIsInline() {
      return engines.avatarIsInline;
    },
    reaction: () => {
      reactionEngineCalls++;
      return engines.reaction();
    },
    hooks: () => engines.hooks(),
  };
  const logged = built.metrics;
  return { ...built, engines: counted, metrics: { record: (event) => (metrics.record(event), logged?.record(event)) } };
}

beforeAll(async () => {
  // Three jobs polled at once on a busy machine pass the contract's 120 requests a minute; the limit is rate-limit.test.ts's.
  t = await startTestStack({ renders: 'real', rateLimitPerMinute: 10_000, adjustDependencies: counting });
}, 240_000);

afterEach(async () => {
  t.runner.reset();
  await t?.stack.jobs.idle();
});

afterAll(() => t?.stop());


const customer = (plan: 'free' | 'pro' = 'pro') => t.newCustomer(plan);
const holdJobs = () => t.holdJobs();

const allowance = async (api: ApiClient) => (await api.get('/usage')).body.data.allowance as { limit: number; used: number; reserved: number; remaining: number };
const jobIds = async (api: ApiClient) => ((await api.get('/videos/jobs')).body.data as { id: number }[]).map((job) => job.id);
const prompts = (count: number) => Array.from({ length: count }, (_, i) => ({ method: 'prompt', prompt: `shocked by the price, take ${i + 1}`, hook_text: `Hook ${i + 1}` }));
const batchOf = (productId: number, variants: unknown[]) => ({ product_id: productId, variants });
const withKey = (api: ApiClient, key: string, body: unknown) => api.send('POST', '/videos/batch', { json: body, headers: { 'idempotency-key': key } });

describe('POST /videos/batch: one saved reaction under three hooks', () => {
  test(
    'every variant reaches done with no generation and one encode each (its compose); the batch view counts them; batch_id is on each job; a repeat with the key is the same batch; the key with another body is 409',
    async () => {
      const { api } = await t.newAccount({ plan: 'pro' });
      const product = await productWithDemo(api, () => t.stack.tasks.idle());
      const source = await api.post('/videos', { product_id: product.id, method: 'prompt', mode: 'preview', prompt: 'amazed by this serum' });
      expect(source.status).toBe(202);
      await waitForJob(api, source.body.data.id, ['preview_ready']);
      const saved = await api.post('/reactions', { job_id: source.body.data.id });
      expect(saved.status).toBe(201);
      const reactionId = saved.body.data.id as number;

      const generationsBefore = reactionEngineCalls;
      const rendersBefore = metrics.named('RenderSeconds').length;
      const key = randomUUID();
      const body = batchOf(product.id, ['Wait for it', 'You need this', 'Best buy of the year'].map((hook) => ({ method: 'reuse', reaction_id: reactionId, hook_text: hook })));
      const created = await withKey(api, key, body);
      expect(created.status).toBe(202);
      const batch = created.body.data;
      expect(batch).toMatchObject({ id: expect.any(Number), product_id: product.id, counts: { queued: 3, processing: 0, preview_ready: 0, done: 0, failed: 0 } });
      expect(batch.jobs.map((job: { hook_text: string; batch_id: number; method: string }) => [job.hook_text, job.batch_id, job.method])).toEqual([
        ['Wait for it', batch.id, 'reuse'],
        ['You need this', batch.id, 'reuse'],
        ['Best buy of the year', batch.id, 'reuse'],
      ]);
      const ids = batch.jobs.map((job: { id: number }) => job.id) as number[];

      // Three jobs polled side by side: every 2 s each keeps the account at 90 requests a minute, under its 120.
      const finished = await Promise.all(ids.map((id) => waitForJob(api, id, ['done'], { intervalMs: 2000 })));
      for (const { job, observed } of finished) {
        expect(job).toMatchObject({ status: 'done', charged_units: 1, video_id: expect.any(Number), batch_id: batch.id });
        expect(observed.map((o) => o.stage)).not.toContain('generating_reaction');
      }
      expect(reactionEngineCalls).toBe(generationsBefore);
      // Compose is each variant's one encode (its caption segment); GenerateReaction only passes the
      // saved clip through (the engine is not called, above).
      expect(metrics.named('RenderSeconds').slice(rendersBefore).map((e) => e.step).sort()).toEqual(['compose', 'compose', 'compose', 'generate_reaction', 'generate_reaction', 'generate_reaction']);

      const view = await api.get(`/videos/batches/${batch.id}`);
      expect(view.status).toBe(200);
      expect(view.body.data).toMatchObject({ id: batch.id, product_id: product.id, created_at: batch.created_at, counts: { queued: 0, processing: 0, preview_ready: 0, done: 3, failed: 0 } });
      expect(view.body.data.jobs.map((job: { id: number }) => job.id)).toEqual(ids);
      expect((await api.get(`/videos/jobs/${ids[1]}`)).body.data.batch_id).toBe(batch.id);
      const listed = (await api.get('/videos/jobs')).body.data as { id: number; batch_id: number | null }[];
      expect(listed.find((job) => job.id === source.body.data.id)?.batch_id).toBeNull();
      expect(listed.filter((job) => job.batch_id === batch.id).map((job) => job.id).sort()).toEqual([...ids].sort());

      const repeat = await withKey(api, key, body);
      expect(repeat.status).toBe(202);
      expect(repeat.body.data).toMatchObject({ id: batch.id, counts: { done: 3 } });
      expect([created.headers.get('idempotent-replayed'), repeat.headers.get('idempotent-replayed')]).toEqual([null, 'true']);
      expectError(await withKey(api, key, { ...body, variants: body.variants.slice(0, 2) }), 409, 'conflict');
      expect(await allowance(api)).toMatchObject({ used: 4, reserved: 0 });
      expect((await api.get('/videos')).body.meta.total).toBe(3);

      // Another account's batch, and an unknown one, are 404.
      const stranger = await t.newAccount();
      expectError(await stranger.api.get(`/videos/batches/${batch.id}`), 404, 'not_found');
      expectError(await api.get('/videos/batches/999999'), 404, 'not_found');
      expectError(await api.get('/videos/batches/abc'), 400, 'bad_request');
    },
    JOB_TEST_MS,
  );
});

describe('POST /videos/batch: all or nothing', () => {
  test('an allowance that cannot cover every variant is 402 for the whole batch: usage and the job list unchanged', async () => {
    const { api, productId } = await customer('free');
    holdJobs();
    expect((await api.post('/videos', { product_id: productId, method: 'prompt', prompt: 'one' })).status).toBe(202);
    const before = await allowance(api);
    expect(before).toMatchObject({ limit: 3, remaining: 2 });
    const jobsBefore = await jobIds(api);
    expectError(await withKey(api, randomUUID(), batchOf(productId, prompts(3))), 402, 'allowance_exhausted');
    expect(await allowance(api)).toEqual(before);
    expect(await jobIds(api)).toEqual(jobsBefore);
    // Two fit.
    const fits = await api.post('/videos/batch', batchOf(productId, prompts(2)));
    expect(fits.status).toBe(202);
    expect(fits.body.data.counts).toEqual({ queued: 2, processing: 0, preview_ready: 0, done: 0, failed: 0 });
    expect(await allowance(api)).toMatchObject({ reserved: 3, remaining: 0 });
  });

  test('bad batches are 400 naming what is wrong (none or 21 variants, another product in a variant, a variant\'s own field), and leave nothing', async () => {
    const { api, productId } = await customer();
    holdJobs();
    const other = await api.post('/products', { name: 'Lamp' });
    const refusals = [
      [batchOf(productId, []), 'variants: must hold 1 to 20 variants'],
      [batchOf(productId, prompts(21)), 'variants: must hold 1 to 20 variants'],
      [batchOf(productId, [...prompts(2), { ...prompts(1)[0], product_id: other.body.data.id }]), 'variants[2].product_id'],
      [batchOf(productId, [{ method: 'prompt' }]), 'variants[0]: method=prompt needs prompt'],
      [{ variants: prompts(1) }, 'product_id'],
      [{ ...batchOf(productId, prompts(1)), extra: 1 }, 'unknown field(s): extra'],
    ] as const;
    for (const [body, named] of refusals) {
      const res = await api.post('/videos/batch', body);
      expectError(res, 400, 'bad_request');
      expect(res.body.error).toContain(named);
    }
    const form = await api.send('POST', '/videos/batch', { body: `product_id=${productId}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expectError(form, 415, 'unsupported_media_type');
    expectError(await api.send('POST', '/videos/batch', { body: '{"product_id": 1, "variants": [', headers: { 'content-type': 'application/json' } }), 400, 'bad_request');
    expect(await jobIds(api)).toEqual([]);
    expect(await allowance(api)).toMatchObject({ used: 0, reserved: 0 });
  });

  test('an unknown saved reaction in one variant is 404 naming that variant, and nothing is written', async () => {
    const { api, productId } = await customer();
    holdJobs();
    const res = await api.post('/videos/batch', batchOf(productId, [...prompts(2), { method: 'reuse', reaction_id: 987654 }]));
    expectError(res, 404, 'not_found');
    expect(res.body.error).toContain('variants[2].reaction_id');
    expectError(await api.post('/videos/batch', batchOf(987654, prompts(1))), 404, 'not_found');
    expect(await jobIds(api)).toEqual([]);
    expect(await allowance(api)).toMatchObject({ used: 0, reserved: 0 });
  });

  test('two batches at once against an allowance that covers one: exactly one 202 and one 402', async () => {
    const { api, productId } = await customer('free');
    holdJobs();
    const answers = await Promise.all([0, 1].map(() => api.post('/videos/batch', batchOf(productId, prompts(2)))));
    expect(answers.map((a) => a.status).sort()).toEqual([202, 402]);
    expectError(answers.find((a) => a.status === 402)!, 402, 'allowance_exhausted');
    const won = answers.find((a) => a.status === 202)!.body.data;
    expect(await allowance(api)).toEqual({ limit: 3, used: 0, reserved: 2, remaining: 1 });
    expect((await jobIds(api)).sort()).toEqual(won.jobs.map((job: { id: number }) => job.id).sort());
  });

  test('the same batch sent twice at once with one key: one batch, one set of units', async () => {
    const { api, productId } = await customer();
    holdJobs();
    const key = randomUUID();
    const raced = await Promise.all([0, 1].map(() => withKey(api, key, batchOf(productId, prompts(3)))));
    expect(raced.map((r) => r.status)).toEqual([202, 202]);
    expect(raced[1]!.body.data.id).toBe(raced[0]!.body.data.id);
    expect(await allowance(api)).toMatchObject({ used: 0, reserved: 3 });
    expect(await jobIds(api)).toHaveLength(3);
  });

  test('?dry_run=true quotes one unit per variant and writes nothing; a repeat of a made batch with its key quotes 0', async () => {
    const { api, productId } = await customer('free');
    holdJobs();
    const key = randomUUID();
    const body = batchOf(productId, prompts(3));
    const quote = await withKeyDry(api, key, body);
    expect(quote.status).toBe(200);
    expect(quote.body.data).toMatchObject({ valid: true, units: 3, allowance: { limit: 3, used: 0, reserved: 0, remaining: 3 }, estimated_seconds: expect.any(Number) });
    expect(await jobIds(api)).toEqual([]);
    expectError(await api.post('/videos/batch?dry_run=true', batchOf(productId, prompts(4))), 402, 'allowance_exhausted');
    expect((await withKey(api, key, body)).status).toBe(202);
    expect((await withKeyDry(api, key, body)).body.data).toMatchObject({ units: 0 });
    expect(await allowance(api)).toMatchObject({ reserved: 3 });
  });
});

const withKeyDry = (api: ApiClient, key: string, body: unknown) => api.send('POST', '/videos/batch?dry_run=true', { json: body, headers: { 'idempotency-key': key } });
