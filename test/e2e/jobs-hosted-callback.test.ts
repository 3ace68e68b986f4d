/**
 * A job on the hosted engine (the real fal adapters against the loopback fal double) waits by
 * callback: GenerateReaction submits with fal's webhook pointing at this stack's
 * POST /engines/fal/callbacks/{ticket}, keeps the request id on the job, and the execution parks at
 * AwaitProvider with no step running; the double completes the request on its own and calls back,
 * which resumes the execution, and GenerateReaction fetches the result by the kept id. A forged or
 * malformed callback is refused with a 4xx and changes nothing; a step that dies after its request
 * was kept reattaches instead of paying again.
 */
import { createFalReactionEngine } from '#adapters/engines/fal/engine';
import { EngineError, isProviderPending, type ReactionEngine } from '#ports/engine';
import type { StoredJob } from '#domain/job-execution';
import { faceFinder } from '#test-doubles/faces';
import { startFalDouble, type FalDouble } from '#test-doubles/fal-queue';
import { eventually } from '#test-support/clock';
import { apiClient, expectError, startTestStack, type TestStack } from '#test-support/local-stack';
import { productWithDemo, waitForJob } from '#test-support/jobs';

let fal: FalDouble;
let t: TestStack;
/** The first generation with a prompt here dies once its request is kept (a crashed step). */
const crashOnce = new Set<string>();

beforeAll(async () => {
  fal = await startFalDouble();
  t = await startTestStack({
    adjustDependencies: (built) => {
      const real = createFalReactionEngine({
        blobs: built.blobs,
        apiKey: { get: async () => fal.key, invalidate: () => undefined },
        settings: { queueUrl: fal.baseUrl, pollIntervalMs: 10_000, webhookUrl: undefined },
      });
      const hosted: ReactionEngine = {
        name: real.name,
        callsBack: real.callsBack,
        reactionFromPrompt: (avatar, prompt, options) =>
          real.reactionFromPrompt(avatar, prompt, options).catch((error: unknown) => {
            if (isProviderPending(error) && crashOnce.delete(prompt)) throw new EngineError('provider_unavailable', 'the step died after keeping its request', { retryable: true });
            throw error;
          }),
        reactionFromMotion: (avatar, key, options) => real.reactionFromMotion(avatar, key, options),
      };
      return {
        ...built,
        engines: Object.assign(Object.create(built.engines) as typeof built.engines, { reaction: async () => hosted }),
        // The double's clip is a sliding square: the face check is the hosted-face suite's subject.
        faces: { ...built.faces, ...faceFinder() },
        providerCallbackUrl: () => t.stack.baseUrl,
      };
    },
  });
}, 120_000);
afterAll(async () => {
  await t?.stop();
  await fal?.close();
});
beforeEach(() => fal.reset());

const stored = async (accountId: number, id: number) => (await t.stack.dependencies.jobs.get(accountId, id)) as StoredJob;
const callbackPath = (url: string) => new URL(url).pathname.replace(/^\/api\/v1/, '');

async function autoJob(prompt = 'shocked by the price') {
  const { accountId, api } = await t.newAccount();
  const product = await productWithDemo(api, () => t.stack.tasks.idle());
  const created = await api.post('/videos', { product_id: product.id, method: 'prompt', mode: 'auto', prompt, hook_text: 'POV: it works' });
  expect(created.status).toBe(202);
  return { accountId, api, id: created.body.data.id as number };
}

test('a hosted job completes through the webhook: one submit, no polling loop, the execution parked while fal ran', async () => {
  fal.runOnTheirOwn({ afterMs: 300 });
  const { accountId, api, id } = await autoJob();
  const { job } = await waitForJob(api, id, ['done', 'failed']);
  expect(job.status).toBe('done');

  const [submit, ...more] = fal.calls('submit');
  expect(more).toEqual([]);
  const hook = submit!.query.get('fal_webhook')!;
  expect(hook).toMatch(new RegExp(`^${t.stack.baseUrl}/api/v1/engines/fal/callbacks/${accountId}\\.${id}\\.[A-Za-z0-9_-]{43}$`));
  // The step after the webhook asks once by the kept id; nothing polled while the request ran.
  expect(fal.calls('status')).toHaveLength(1);
  expect(fal.calls('result')).toHaveLength(1);
  expect(fal.deliveries.filter((d) => d.status === 200)).toHaveLength(1);
  const record = await stored(accountId, id);
  expect(Object.values(record.provider_requests!.slots).map((r) => r.requestId)).toEqual([...fal.jobs.keys()]);
}, 180_000);

test('forged and malformed callbacks get a 4xx in the error envelope and change nothing; the real one then resumes the job', async () => {
  const { accountId, api, id } = await autoJob();
  await eventually(() => fal.calls('submit').length === 1, 60_000);
  let parked: StoredJob | undefined;
  await eventually(() => {
    void stored(accountId, id).then((job) => (parked = job));
    return !!parked?.provider_wait?.token;
  }, 60_000);
  const [requestId, falJob] = [...fal.jobs.entries()][0]!;
  const real = callbackPath(falJob.webhookUrl!);
  const anon = apiClient(t.stack.apiUrl);
  const body = fal.webhookBody(requestId);

  const secret = parked!.provider_wait!.secret;
  const wrongSecret = real.replace(secret, secret.slice(0, -1) + (secret.endsWith('A') ? 'B' : 'A'));
  expectError(await anon.post(wrongSecret, body), 404, 'not_found');
  expectError(await anon.post(real.replace(`${accountId}.${id}.`, `${accountId}.${id + 1000}.`), body), 404, 'not_found');
  expectError(await anon.post('/engines/fal/callbacks/not-a-ticket', body), 404, 'not_found');
  expectError(await anon.post(real, { request_id: requestId, status: 'DONE' }), 400, 'bad_request');
  expectError(await anon.send('POST', real, { body: '{not json', headers: { 'content-type': 'application/json' } }), 400, 'bad_request');
  // Another request id, with the right ticket: acknowledged, nothing resumed.
  expect((await anon.post(real, fal.webhookBody('someone-elses-request'))).body.data).toEqual({ received: true, result: 'ignored' });

  const after = await stored(accountId, id);
  expect(after.provider_wait).toEqual(parked!.provider_wait);
  expect(after.status).toBe('processing');
  expect(t.stack.jobs.pendingTokens()).toContain(parked!.provider_wait!.token);

  fal.complete(requestId);
  expect((await anon.post(real, body)).body.data).toEqual({ received: true, result: 'resumed' });
  const { job } = await waitForJob(api, id, ['done', 'failed']);
  expect(job.status).toBe('done');
  // The token is spent: the same callback again resumes nothing.
  expect((await anon.post(real, body)).body.data).toEqual({ received: true, result: 'ignored' });
  expect(fal.calls('submit')).toHaveLength(1);
}, 180_000);

test('a step that dies after keeping its request is retried and reattaches: fal sees exactly one submission', async () => {
  fal.runOnTheirOwn({ afterMs: 1_500 });
  crashOnce.add('laughing at the price');
  const { accountId, api, id } = await autoJob('laughing at the price');
  const { job } = await waitForJob(api, id, ['done', 'failed']);
  expect(job.status).toBe('done');
  expect(crashOnce.size).toBe(0);
  expect(fal.calls('submit')).toHaveLength(1);
  expect(Object.keys((await stored(accountId, id)).provider_requests!.slots)).toHaveLength(1);
}, 180_000);
