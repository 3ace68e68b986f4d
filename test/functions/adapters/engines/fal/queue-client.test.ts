/**
 * The fal.ai queue client against the loopback queue double: lifecycle, URLs taken from answers,
 * retries and their delays, error mapping, cancellation on abort and timeout, webhook hints.
 */
import * as z from 'zod';
import { EngineError, ProviderPending, type ProviderRequest, type ProviderRequestLog } from '#ports/engine';
import type { SecretProvider } from '#adapters/engines/credentials';
import { FalQueueClient, type FalClientOptions, type FalQueueUpdate } from '#adapters/engines/fal/queue-client';
import { FalWebhooks } from '#adapters/engines/fal/webhook';
import { startFalDouble, type FalDouble } from '#test-doubles/fal-queue';

const MOTION = 'fal-ai/kling-video/v2.6/standard/motion-control';
const Output = z.looseObject({ video: z.looseObject({ url: z.string() }) });
const input = { image_url: 'https://example.com/a.png', video_url: 'https://example.com/b.mp4', character_orientation: 'image' };

let double: FalDouble;
let sleeps: number[];

function keyOf(value: string): SecretProvider & { invalidate: jest.Mock } {
  return { get: async () => value, invalidate: jest.fn() };
}

/** Where this test's webhooks arrive: each test starts with none seen. */
let webhooks = new FalWebhooks();

function client(overrides: Partial<FalClientOptions> = {}): FalQueueClient {
  return new FalQueueClient({
    queueUrl: double.baseUrl,
    apiKey: keyOf(double.key),
    requestTimeoutMs: 1_000,
    pollIntervalMs: 5,
    webhooks,
    backoff: {
      maxAttempts: 3,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    },
    ...overrides,
  });
}

function run(c: FalQueueClient, options: { timeoutMs?: number; signal?: AbortSignal; onUpdate?: (u: FalQueueUpdate) => void; requests?: ProviderRequestLog } = {}) {
  return c.run(MOTION, { input, output: Output, timeoutMs: options.timeoutMs ?? 5_000, signal: options.signal, onUpdate: options.onUpdate, requests: options.requests });
}

/** A request log as a job record keeps it, with what the queue had seen when each request was remembered. */
function requestLog(seed: Record<string, ProviderRequest> = {}) {
  const slots = new Map(Object.entries(seed));
  const statusPollsWhenRemembered: number[] = [];
  const log: ProviderRequestLog = {
    recall: async (slot) => slots.get(slot) ?? null,
    remember: async (slot, request) => {
      statusPollsWhenRemembered.push(double.calls('status').length);
      slots.set(slot, request);
    },
    forget: async (slot) => void slots.delete(slot),
  };
  return { log, slots, statusPollsWhenRemembered };
}

async function failure(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof EngineError)) throw new Error(`expected an EngineError, got ${String(error)}`);
  return error;
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 3_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

beforeAll(async () => {
  double = await startFalDouble();
});

afterAll(async () => {
  await double.close();
});

beforeEach(() => {
  double.reset();
  webhooks = new FalWebhooks();
  sleeps = [];
});

describe('the queue lifecycle', () => {
  it('submits, polls IN_QUEUE → IN_PROGRESS → COMPLETED and returns the validated result', async () => {
    const updates: FalQueueUpdate[] = [];
    const { requestId, output } = await run(client(), { onUpdate: (u) => updates.push(u) });
    const job = double.jobs.get(requestId)!;
    expect(output.video.url).toBe(`${double.baseUrl}/media/${requestId}.mp4`);

    const [submit] = double.calls('submit');
    expect(submit!.path).toBe(`/${MOTION}`);
    expect(submit!.headers.authorization).toBe(`Key ${double.key}`);
    expect(submit!.headers['content-type']).toBe('application/json');
    expect(job.input).toEqual(input);
    expect(updates.map((u) => u.status)).toEqual(['IN_QUEUE', 'IN_PROGRESS']);
    expect(updates[0]!.queuePosition).toEqual(expect.any(Number));
    expect(updates[1]!.logs).toEqual(['step 2']);
    expect(double.calls('result')).toHaveLength(1);
    expect(double.calls('cancel')).toHaveLength(0);
  });

  it('polls the returned status_url and fetches the returned response_url, never guessed paths', async () => {
    const { requestId } = await run(client());
    const root = `/fal-ai/kling-video/requests/${requestId}`;
    expect(double.calls('status').map((r) => r.path)).toEqual([`${root}/status`, `${root}/status`, `${root}/status`]);
    expect(double.calls('result').map((r) => r.path)).toEqual([root]);
    // The subpath is not part of them, and nothing was sent where a client would guess.
    expect(double.requests.some((r) => r.path.startsWith(`/${MOTION}/requests/`))).toBe(false);
    for (const r of [...double.calls('status'), ...double.calls('result')]) expect(r.headers.authorization).toBe(`Key ${double.key}`);
  });

  it('refuses status/response/cancel URLs on another origin (they would receive our key)', async () => {
    double.fault({
      route: 'submit',
      status: 200,
      body: {
        request_id: 'r1',
        status: 'IN_QUEUE',
        status_url: 'https://attacker.example/status',
        response_url: `${double.baseUrl}/x/y/requests/r1`,
        cancel_url: `${double.baseUrl}/x/y/requests/r1/cancel`,
      },
    });
    const error = await failure(run(client()));
    expect(error.code).toBe('provider_error');
    expect(error.message).toContain('status_url points outside');
  });

  it('a submit answer missing response_url breaks the contract: provider_error', async () => {
    double.script({ omitFromSubmit: 'response_url' });
    const error = await failure(run(client()));
    expect(error.code).toBe('provider_error');
    expect(error.message).toContain('response_url');
  });
});

describe('retries', () => {
  it('429 with Retry-After, then success: waits at least Retry-After, then submits again', async () => {
    double.fault({ route: 'submit', status: 429, headers: { 'retry-after': '2' }, body: { detail: 'Rate limit exceeded' } });
    await run(client());
    expect(double.calls('submit')).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThanOrEqual(2_000);
  });

  it('500s on status polls are retried with growing jittered backoff', async () => {
    double.fault({ route: 'status', status: 500, body: { detail: 'Internal Server Error' }, times: 2 });
    await run(client());
    expect(sleeps).toHaveLength(2);
    expect(sleeps[0]!).toBeGreaterThanOrEqual(250);
    expect(sleeps[0]!).toBeLessThanOrEqual(500);
    expect(sleeps[1]!).toBeGreaterThanOrEqual(500);
    expect(sleeps[1]!).toBeLessThanOrEqual(1_000);
  });

  it('503 that persists is provider_unavailable (retryable) after every attempt, naming fal\'s error type', async () => {
    double.fault({
      route: 'submit',
      status: 503,
      headers: { 'x-fal-error-type': 'runner_scheduling_failure' },
      body: { detail: 'No runner available', error_type: 'runner_scheduling_failure' },
      times: 3,
    });
    const error = await failure(run(client()));
    expect(error).toMatchObject({ code: 'provider_unavailable', retryable: true });
    expect(error.message).toContain('runner_scheduling_failure');
    expect(double.calls('submit')).toHaveLength(3);
  });

  it('504 on the result after retries is provider_unavailable, and the request is cancelled', async () => {
    double.fault({ route: 'result', status: 504, headers: { 'x-fal-error-type': 'request_timeout' }, body: { detail: 'timeout' }, times: 3 });
    const error = await failure(run(client()));
    expect(error).toMatchObject({ code: 'provider_unavailable', retryable: true });
    expect(double.calls('result')).toHaveLength(3);
    expect(double.calls('cancel')).toHaveLength(1);
  });

  it('a dropped connection is retried', async () => {
    double.fault({ route: 'status', destroy: true });
    await expect(run(client())).resolves.toMatchObject({ requestId: expect.any(String) });
    expect(sleeps).toHaveLength(1);
  });

  it('a slow answer past the per-request timeout is retried', async () => {
    double.fault({ route: 'status', delayMs: 400 });
    await expect(run(client({ requestTimeoutMs: 150 }))).resolves.toMatchObject({ requestId: expect.any(String) });
    expect(sleeps).toHaveLength(1);
  });

  it('answers that stay slower than the per-request timeout end as provider_timeout', async () => {
    double.fault({ route: 'submit', delayMs: 400, times: 3 });
    const error = await failure(run(client({ requestTimeoutMs: 100 })));
    expect(error).toMatchObject({ code: 'provider_timeout', retryable: true });
  });

  it('an unreachable queue is provider_unavailable', async () => {
    const error = await failure(run(client({ queueUrl: 'http://127.0.0.1:9' })));
    expect(error).toMatchObject({ code: 'provider_unavailable', retryable: true });
    expect(sleeps).toHaveLength(2);
  });
});

describe('error mapping', () => {
  it('a wrong key is 401 → provider_auth: not retried, cached key dropped', async () => {
    const key = keyOf('not-the-key');
    const error = await failure(run(client({ apiKey: key })));
    expect(error).toMatchObject({ code: 'provider_auth', retryable: false });
    expect(error.message).toContain('FAL_KEY');
    expect(double.calls('submit')).toHaveLength(1);
    expect(key.invalidate).toHaveBeenCalled();
  });

  it('422 validation detail → invalid_input with the provider\'s words, not retried', async () => {
    double.script({
      submitAnswer: {
        status: 422,
        body: { detail: [{ loc: ['body', 'video_url'], msg: 'Video duration must be between 3 and 10 seconds in image orientation', type: 'value_error' }] },
      },
    });
    const error = await failure(run(client()));
    expect(error).toMatchObject({ code: 'invalid_input', retryable: false });
    expect(error.message).toBe(
      'The generation provider could not use the input (the reference clip: Video duration must be between 3 and 10 seconds in image orientation)',
    );
    expect(double.calls('submit')).toHaveLength(1);
  });

  it('422 content policy detail → content_rejected', async () => {
    double.script({
      result: {
        status: 422,
        body: {
          detail: [
            {
              loc: ['body', 'prompt'],
              msg: 'The content could not be processed because it contained material flagged by a content checker.',
              type: 'content_policy_violation',
            },
          ],
        },
      },
    });
    const error = await failure(run(client()));
    expect(error).toMatchObject({ code: 'content_rejected', retryable: false });
    expect(error.message).toContain('the prompt: The content could not be processed');
  });

  it('malformed JSON in a status answer → provider_error, and the running request is cancelled', async () => {
    double.fault({ route: 'status', status: 200, body: '{"status": "IN_PROG' });
    const error = await failure(run(client()));
    expect(error).toMatchObject({ code: 'provider_error', retryable: false });
    expect(error.message).toContain('malformed JSON');
    expect(double.calls('cancel')).toHaveLength(1);
  });

  it('a result that does not match the model output schema → provider_error', async () => {
    double.script({ result: { status: 200, body: { video: { file_name: 'x.mp4' } } } });
    const error = await failure(run(client()));
    expect(error.code).toBe('provider_error');
    expect(error.message).toContain('video.url');
  });

  it('FAILED is terminal: the reason is read from response_url', async () => {
    double.script({
      statuses: ['IN_QUEUE', 'FAILED'],
      result: { status: 422, body: { detail: [{ loc: ['body', 'image_url'], msg: 'No face detected in the image', type: 'value_error' }] } },
    });
    const error = await failure(run(client()));
    expect(error).toMatchObject({ code: 'invalid_input' });
    expect(error.message).toContain('the avatar image: No face detected');
  });

  it('an unknown status is terminal: provider_error', async () => {
    double.script({ statuses: ['IN_QUEUE', 'EXPLODED'], result: { status: 400, body: { detail: 'Request is still in progress' } } });
    const error = await failure(run(client()));
    expect(error.code).toBe('provider_error');
    expect(error.message).toContain('EXPLODED');
  });
});

describe('timeout and cancellation', () => {
  it('the overall timeout → provider_timeout, and PUT cancel_url is sent', async () => {
    double.script({ statuses: ['IN_QUEUE', 'IN_PROGRESS'] });
    const error = await failure(run(client({ pollIntervalMs: 20 }), { timeoutMs: 300 }));
    expect(error).toMatchObject({ code: 'provider_timeout', retryable: true });
    const cancels = double.calls('cancel');
    expect(cancels).toHaveLength(1);
    // The job the run was waiting on when time ran out. On a loaded machine a submit can outlast its
    // request timeout and be sent again, so the double may hold more than one job: the cancel names one of them.
    const job = [...double.jobs.values()].find((j) => cancels[0]!.path === `/fal-ai/kling-video/requests/${j.id}/cancel`);
    expect(cancels[0]).toMatchObject({ method: 'PUT', path: expect.stringMatching(/^\/fal-ai\/kling-video\/requests\/[^/]+\/cancel$/) });
    expect(cancels[0]!.headers.authorization).toBe(`Key ${double.key}`);
    expect(job?.cancelled).toBe(true);
  });

  it('an abort → cancelled, and PUT cancel_url is sent', async () => {
    double.script({ statuses: ['IN_QUEUE', 'IN_PROGRESS'] });
    const controller = new AbortController();
    const pending = run(client({ pollIntervalMs: 20 }), { signal: controller.signal });
    await until(() => double.calls('status').length >= 2, 'two polls');
    controller.abort();
    const error = await failure(pending);
    expect(error).toMatchObject({ code: 'cancelled', retryable: false });
    expect(double.calls('cancel')).toHaveLength(1);
    expect([...double.jobs.values()][0]!.cancelled).toBe(true);
  });

  it('an abort during a slow request stops it at once', async () => {
    // The poll, the request timeout and the run's timeout all outlast the test: only the abort can end it.
    const outlasting = 120_000;
    double.fault({ route: 'status', delayMs: outlasting });
    const controller = new AbortController();
    const pending = run(client({ requestTimeoutMs: outlasting }), { signal: controller.signal, timeoutMs: outlasting });
    await until(() => double.calls('status').length >= 1, 'the slow poll');
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'cancelled' });
    expect(double.calls('cancel')).toHaveLength(1);
  });

  it('an already aborted signal submits nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(run(client(), { signal: controller.signal })).rejects.toMatchObject({ code: 'cancelled' });
    expect(double.requests).toHaveLength(0);
  });
});

describe('waiting by callback: nothing polls, the webhook brings the next call', () => {
  const HOOK = 'https://api.example/api/v1/engines/fal/callbacks/1.2.secret';
  const byCallback = (c: FalQueueClient, requests: ProviderRequestLog, timeoutMs = 5_000) =>
    c.run(MOTION, { input, output: Output, timeoutMs, requests, callback: { webhookUrl: HOOK } });
  const pending = (promise: Promise<unknown>) => promise.then(() => null, (e: unknown) => e);

  it('submits with the webhook, keeps the request and answers ProviderPending without a single status poll', async () => {
    const kept = requestLog();
    const error = await pending(byCallback(client(), kept.log));
    expect(error).toBeInstanceOf(ProviderPending);
    const [submit] = double.calls('submit');
    expect(submit!.query.get('fal_webhook')).toBe(HOOK);
    expect((error as ProviderPending).requestIds).toEqual([kept.slots.get(MOTION)!.requestId]);
    expect(double.calls('status')).toHaveLength(0);
    expect(double.calls('cancel')).toHaveLength(0);
  });

  it('the call after the webhook reattaches by request id: one status, one result, no second submit', async () => {
    const kept = requestLog();
    await pending(byCallback(client(), kept.log));
    double.complete(kept.slots.get(MOTION)!.requestId);
    const { requestId, output } = await byCallback(client(), kept.log);
    expect(requestId).toBe(kept.slots.get(MOTION)!.requestId);
    expect(output.video.url).toContain(requestId);
    expect(double.calls('submit')).toHaveLength(1);
    expect(double.calls('status')).toHaveLength(1);
    expect(double.calls('result')).toHaveLength(1);
  });

  it('a call before the request ends (a spurious wake, or the wait timed out) is pending again, submitting nothing', async () => {
    double.script({ statuses: ['IN_PROGRESS'] });
    const kept = requestLog();
    await pending(byCallback(client(), kept.log));
    expect(await pending(byCallback(client(), kept.log))).toBeInstanceOf(ProviderPending);
    expect(double.calls('submit')).toHaveLength(1);
    expect(double.calls('cancel')).toHaveLength(0);
  });

  it('a kept request still running past the generation limit (a lost webhook) fails as a timeout and is cancelled', async () => {
    double.script({ statuses: ['IN_PROGRESS'] });
    const kept = requestLog();
    await pending(byCallback(client(), kept.log));
    const request = kept.slots.get(MOTION)!;
    kept.slots.set(MOTION, { ...request, submittedAt: new Date(Date.now() - 10_000).toISOString() });
    const error = await failure(byCallback(client(), kept.log, 5_000));
    expect(error.code).toBe('provider_timeout');
    expect(double.calls('cancel')).toHaveLength(1);
    expect(kept.slots.size).toBe(0);
  });

  it('a request that failed upstream fails the call with its reason, as polling would', async () => {
    double.script({ statuses: ['FAILED'], result: { status: 422, body: { detail: [{ msg: 'the image has no face', type: 'value_error' }] } } });
    const kept = requestLog();
    await pending(byCallback(client(), kept.log));
    const error = await failure(byCallback(client(), kept.log));
    expect(error.code).not.toBe('provider_timeout');
    expect(double.calls('submit')).toHaveLength(1);
  });

  it('a callback without a request log is refused before anything is sent', async () => {
    const error = await failure(client().run(MOTION, { input, output: Output, timeoutMs: 1_000, callback: { webhookUrl: HOOK } }));
    expect(error.code).toBe('engine_failure');
    expect(double.requests).toHaveLength(0);
  });
});

describe('kept requests: a step retried after its process died reattaches instead of paying twice', () => {
  it('the submitted request is kept, under the model id, before the first poll', async () => {
    const kept = requestLog();
    const { requestId } = await run(client(), { requests: kept.log });
    expect(kept.statusPollsWhenRemembered).toEqual([0]);
    expect(kept.slots.get(MOTION)).toEqual({
      requestId,
      statusUrl: `${double.baseUrl}/fal-ai/kling-video/requests/${requestId}/status`,
      responseUrl: `${double.baseUrl}/fal-ai/kling-video/requests/${requestId}`,
      cancelUrl: `${double.baseUrl}/fal-ai/kling-video/requests/${requestId}/cancel`,
      submittedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('a second run over the same log, while the first still waits, submits nothing and gets the same result', async () => {
    double.script({ statuses: ['IN_QUEUE', 'IN_PROGRESS'] });
    const kept = requestLog();
    // The first run stands for the process that died mid-wait: it never gets to cancel anything.
    const first = run(client({ pollIntervalMs: 20 }), { requests: kept.log });
    await until(() => kept.slots.has(MOTION), 'the request to be kept');
    const second = run(client({ pollIntervalMs: 20 }), { requests: kept.log });
    await until(() => double.calls('status').length >= 3, 'the retry to poll');
    double.complete(kept.slots.get(MOTION)!.requestId);
    const [a, b] = await Promise.all([first, second]);
    expect(double.calls('submit')).toHaveLength(1);
    expect(b).toEqual(a);
    expect(double.calls('cancel')).toHaveLength(0);
  });

  it('a run that fails cancels its request and forgets it: the next try submits anew', async () => {
    double.script({ statuses: ['IN_QUEUE', 'FAILED'], result: { status: 422, body: { detail: [{ msg: 'the image has no face', type: 'value_error' }] } } });
    const kept = requestLog();
    await failure(run(client(), { requests: kept.log }));
    expect(double.calls('cancel')).toHaveLength(1);
    expect(kept.slots.size).toBe(0);
    double.script({ statuses: ['IN_QUEUE', 'IN_PROGRESS', 'COMPLETED'], result: undefined });
    await run(client(), { requests: kept.log });
    expect(double.calls('submit')).toHaveLength(2);
  });

  it('a kept request whose URLs point at another origin is refused before anything is sent (they would get our key)', async () => {
    const kept = requestLog({
      [MOTION]: { requestId: 'r1', statusUrl: 'https://attacker.example/status', responseUrl: `${double.baseUrl}/x/y/requests/r1`, cancelUrl: `${double.baseUrl}/x/y/requests/r1/cancel` },
    });
    const error = await failure(run(client(), { requests: kept.log }));
    expect(error.code).toBe('provider_error');
    expect(error.message).toContain('status_url points outside');
    expect(double.requests).toHaveLength(0);
  });

  it('a request the log cannot keep is cancelled at once: nothing runs that no retry could find', async () => {
    double.script({ statuses: ['IN_QUEUE', 'IN_PROGRESS'] });
    const log: ProviderRequestLog = {
      recall: async () => null,
      remember: async () => {
        throw new Error('the table is unreachable');
      },
      forget: async () => undefined,
    };
    await expect(run(client(), { requests: log })).rejects.toThrow('the table is unreachable');
    expect(double.calls('submit')).toHaveLength(1);
    expect(double.calls('status')).toHaveLength(0);
    expect(double.calls('cancel')).toHaveLength(1);
  });
});

describe('downloads', () => {
  async function resultUrl(): Promise<string> {
    const { output } = await run(client());
    return output.video.url;
  }

  it('a result whose media URL is 404 → provider_error', async () => {
    double.script({ media: 'missing' });
    const url = await resultUrl();
    const error = await failure(client().download(url, '/tmp/never-written.mp4', { maxBytes: 1e6, timeoutMs: 1_000, describe: 'result video' }));
    expect(error.code).toBe('provider_error');
    expect(error.message).toContain('HTTP 404');
  });

  it('a file over the cap is refused (declared length)', async () => {
    const url = await resultUrl();
    const error = await failure(client().download(url, '/tmp/never-written.mp4', { maxBytes: 1_000, timeoutMs: 1_000, describe: 'result video' }));
    expect(error.code).toBe('provider_error');
    expect(error.message).toContain('larger than');
  });

  it('a file over the cap is refused while streaming (no declared length)', async () => {
    double.script({ media: 'not-media' });
    const url = await resultUrl();
    const error = await failure(client().download(url, '/tmp/never-written.mp4', { maxBytes: 10, timeoutMs: 1_000, describe: 'result video' }));
    expect(error.code).toBe('provider_error');
    expect(error.message).toContain('larger than');
  });
});

describe('webhooks', () => {
  const webhookUrl = 'https://api.example.com/internal/fal-webhook?token=t';

  it('submits ?fal_webhook= and a webhook wakes the waiting run to fetch response_url at once', async () => {
    double.script({ statuses: ['IN_QUEUE', 'IN_PROGRESS'] });
    const registered = jest.spyOn(webhooks, 'await');
    const pending = run(client({ webhookUrl, pollIntervalMs: 60_000 }));
    // The submit's answer reaches the run a moment after the double has the job: wait until it waits.
    await until(() => registered.mock.calls.length === 1, 'the run waiting on its webhook');
    const job = [...double.jobs.values()][0]!;
    expect(job.webhookUrl).toBe(webhookUrl);
    double.complete(job.id);

    expect(webhooks.handle(double.webhookBody(job.id))).toEqual({ ok: true, requestId: job.id, status: 'OK', duplicate: false, woke: 1 });
    await expect(pending).resolves.toMatchObject({ requestId: job.id });
    expect(double.calls('status')).toHaveLength(0);
    expect(double.calls('result')).toHaveLength(1);

    // Redelivery is acknowledged and does nothing.
    expect(webhooks.handle(JSON.stringify(double.webhookBody(job.id)))).toMatchObject({ ok: true, duplicate: true, woke: 0 });
  });

  it('a webhook that arrives early is only a hint: polling carries on', async () => {
    double.script({ statuses: ['IN_QUEUE', 'IN_PROGRESS', 'IN_PROGRESS', 'COMPLETED'] });
    const registered = jest.spyOn(webhooks, 'await');
    const pending = run(client({ webhookUrl, pollIntervalMs: 30 }));
    await until(() => registered.mock.calls.length >= 1, 'the run waiting on its webhook');
    const job = [...double.jobs.values()][0]!;
    webhooks.handle(double.webhookBody(job.id));
    await expect(pending).resolves.toMatchObject({ requestId: job.id });
    expect(double.calls('result').length).toBe(2);
    expect(double.calls('status').length).toBeGreaterThanOrEqual(3);
  });

  it('refuses bodies that are not fal completions', () => {
    expect(webhooks.handle('not json')).toEqual({ ok: false, error: 'webhook body is not JSON' });
    expect(webhooks.handle({ request_id: 'x', status: 'DONE' })).toMatchObject({ ok: false });
    expect(webhooks.handle({ status: 'OK' })).toMatchObject({ ok: false });
    expect(webhooks.handle({ request_id: 'nobody-waits', status: 'ERROR', error: 'boom', payload: { detail: [] } })).toMatchObject({
      ok: true,
      woke: 0,
    });
  });
});
