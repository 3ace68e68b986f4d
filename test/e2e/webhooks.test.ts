/**
 * Webhooks through the local HTTP server: endpoints managed over the API, events raised by real state
 * changes (a product's demo, a preview job approved to done) reaching a loopback receiver signed by the
 * Standard Webhooks scheme, in order per job, with retries, disabling on 410, no redirect followed,
 * the delivery log with every attempt, a manual retry sent within its request, the test ping, a
 * secret rotated with both secrets signing, `*`, the account's event list; and every bad input a 4xx
 * with nothing written.
 */
import { verifyWebhook } from '#client/webhooks';
import { expectError, startTestStack, type ApiClient, type TestStack } from '#test-support/local-stack';
import { startLoopbackServer, type LoopbackServer, type Seen } from '#test-support/loopback-server';
import { productWithDemo, waitForJob } from '#test-support/jobs';
const { max } = Math;

let t: TestStack;
let receiver: LoopbackServer;
/** Never given as an endpoint: a redirect points here, and it must see nothing. */
let bystander: LoopbackServer;

beforeAll(async () => {
  [t, receiver, bystander] = await Promise.all([startTestStack(), startLoopbackServer(), startLoopbackServer()]);
}, 240_000);

beforeEach(() => {
  receiver.reset();
  bystander.reset();
});

afterAll(async () => {
  await Promise.all([t?.stop(), receiver?.close(), bystander?.close()]);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

async function endpoint(api: ApiClient, events: string[], path = '/hook') {
  const res = await api.post('/webhooks', { url: `${receiver.url}${path}`, events, description: 'test receiver' });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; secret: string };
}

const hits = (path: string) => receiver.seen.filter((seen) => seen.path === path);
const eventOf = (seen: Seen, secret: string) => verifyWebhook<any>(JSON.stringify(seen.body), seen.headers as Record<string, string>, secret);
const deliveries = async (api: ApiClient, id: string) => (await api.get(`/webhooks/${id}/deliveries`)).body.data as any[];

describe('managing endpoints', () => {
  test('create shows the secret once; list and get never do; patch and delete', async () => {
    const { api } = await t.newAccount();
    const made = await api.post('/webhooks', { url: `${receiver.url}/a`, events: ['video.job.done'] });
    expect(made.status).toBe(201);
    expect(made.body.data).toEqual({
      id: expect.stringMatching(/^wh_[0-9a-f]{20}$/),
      url: `${receiver.url}/a`,
      events: ['video.job.done'],
      description: null,
      enabled: true,
      disabled_reason: null,
      previous_secret_expires_at: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = made.body.data.id as string;
    const listed = await api.get('/webhooks');
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).not.toHaveProperty('secret');
    expect((await api.get(`/webhooks/${id}`)).body.data).not.toHaveProperty('secret');

    const patched = await api.patch(`/webhooks/${id}`, { events: ['video.job.done', 'video.job.failed'], description: 'ops', enabled: false });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ events: ['video.job.done', 'video.job.failed'], description: 'ops', enabled: false });

    expect((await api.delete(`/webhooks/${id}`)).body.data).toEqual({ id, deleted: true });
    expectError(await api.get(`/webhooks/${id}`), 404, 'not_found');
    expectError(await api.delete(`/webhooks/${id}`), 404, 'not_found');
  });

  test("another account's endpoint is not found, and malformed ids are 400", async () => {
    const owner = await t.newAccount();
    const other = await t.newAccount();
    const { id } = await endpoint(owner.api, ['avatar.ready']);
    expectError(await other.api.get(`/webhooks/${id}`), 404, 'not_found');
    expectError(await other.api.patch(`/webhooks/${id}`, { enabled: false }), 404, 'not_found');
    expectError(await other.api.post(`/webhooks/${id}/test`), 404, 'not_found');
    expectError(await owner.api.get('/webhooks/nope'), 400, 'bad_request');
    expectError(await owner.api.post(`/webhooks/${id}/deliveries/whd_x/retry`), 400, 'bad_request');
    expectError(await owner.api.post(`/webhooks/${id}/deliveries/whd_${'0'.repeat(24)}/retry`), 404, 'not_found');
  });

  test.each([
    ['plain http to a public host', { url: 'http://example.com/hook', events: ['video.job.done'] }],
    ['a private address', { url: 'https://10.1.2.3/hook', events: ['video.job.done'] }],
    ['link-local metadata', { url: 'https://169.254.169.254/latest', events: ['video.job.done'] }],
    ['a name that does not resolve', { url: 'https://no-such-host.invalid/hook', events: ['video.job.done'] }],
    ['credentials in the URL', { url: 'https://user:pw@example.com/hook', events: ['video.job.done'] }],
    ['not a URL', { url: 'hook', events: ['video.job.done'] }],
    ['an unknown event', { url: `https://example.com/hook`, events: ['video.job.exploded'] }],
    ['no events', { url: `https://example.com/hook`, events: [] }],
    ['an event twice', { url: `https://example.com/hook`, events: ['avatar.ready', 'avatar.ready'] }],
    ['"*" beside a type', { url: `https://example.com/hook`, events: ['*', 'avatar.ready'] }],
    ['an unknown field', { url: `https://example.com/hook`, events: ['avatar.ready'], secret: 'mine' }],
  ])('%s is 400 and writes nothing', async (_, body) => {
    const { api } = await t.newAccount();
    expectError(await api.post('/webhooks', body), 400, 'bad_request');
    expect((await api.get('/webhooks')).body.data).toEqual([]);
  });

  test('an eleventh endpoint is 409, even when created at once', async () => {
    const { api } = await t.newAccount();
    const answers = await Promise.all(Array.from({ length: 12 }, () => api.post('/webhooks', { url: `${receiver.url}/x`, events: ['avatar.ready'] })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(10);
    for (const refused of answers.filter((a) => a.status !== 201)) expectError(refused, 409, 'conflict');
    expect((await api.get('/webhooks')).body.data).toHaveLength(10);
  });

  test('a new url is vetted like the first one', async () => {
    const { api } = await t.newAccount();
    const { id } = await endpoint(api, ['avatar.ready']);
    expectError(await api.patch(`/webhooks/${id}`, { url: 'https://192.168.0.1/hook' }), 400, 'bad_request');
    expectError(await api.patch(`/webhooks/${id}`, {}), 400, 'bad_request');
    expect((await api.get(`/webhooks/${id}`)).body.data.url).toBe(`${receiver.url}/hook`);
  });
});

describe('events from state changes', () => {
  test('a preview job approved to done: preview_ready then done, signed, in order, data as GET answers it', async () => {
    const { api } = await t.newAccount();
    receiver.route(() => ({ status: 204 }));
    const { id, secret } = await endpoint(api, ['video.job.preview_ready', 'video.job.done', 'product.demo.ready'], '/jobs');
    const product = await productWithDemo(api, () => t.stack.tasks.idle());
    const demoEvent = eventOf(await until('product.demo.ready', () => hits('/jobs')[0]), secret);
    expect(demoEvent).toMatchObject({ type: 'product.demo.ready', data: { id: product.id, demo_video: { status: 'ready' } } });

    const job = await api.post('/videos', { product_id: product.id, method: 'prompt', mode: 'preview', prompt: 'amazed', hook_text: 'Wait for it' });
    expect(job.status).toBe(202);
    await waitForJob(api, job.body.data.id, ['preview_ready']);
    const previewSeen = await until('preview_ready', () => hits('/jobs').find((seen) => (seen.body as any).type === 'video.job.preview_ready'));
    const preview = eventOf(previewSeen, secret);
    expect(preview.data).toMatchObject({ id: job.body.data.id, status: 'preview_ready', preview_url: expect.any(String) });
    expect(previewSeen.headers['webhook-id']).toBe(preview.id);

    expect((await api.post(`/videos/jobs/${job.body.data.id}/approve`)).status).toBe(202);
    const done = await waitForJob(api, job.body.data.id, ['done']);
    const doneSeen = await until('done', () => hits('/jobs').find((seen) => (seen.body as any).type === 'video.job.done'));
    expect(eventOf(doneSeen, secret).data).toEqual(done.job);
    expect(hits('/jobs').map((seen) => (seen.body as any).type)).toEqual(['product.demo.ready', 'video.job.preview_ready', 'video.job.done']);

    const log = await deliveries(api, id);
    expect(log.map((d) => [d.type, d.status, d.attempt, d.response_status])).toEqual([
      ['video.job.done', 'succeeded', 1, 204],
      ['video.job.preview_ready', 'succeeded', 1, 204],
      ['product.demo.ready', 'succeeded', 1, 204],
    ]);
  }, 300_000);

  test("a job's later event waits while an earlier one is being retried, then follows it", async () => {
    const { api } = await t.newAccount();
    let failPreview = true;
    receiver.route((seen) => {
      if ((seen.body as any).type === 'video.job.preview_ready' && failPreview) return { status: 503 };
      return { status: 200 };
    });
    const { id, secret } = await endpoint(api, ['video.job.preview_ready', 'video.job.done'], '/ordered');
    const product = await productWithDemo(api, () => t.stack.tasks.idle());
    const job = await api.post('/videos', { product_id: product.id, method: 'prompt', mode: 'preview', prompt: 'laughing' });
    await waitForJob(api, job.body.data.id, ['preview_ready']);
    await until('the failed first attempt', () => hits('/ordered')[0]);
    await api.post(`/videos/jobs/${job.body.data.id}/approve`);
    await waitForJob(api, job.body.data.id, ['done']);
    // The done event exists but waits: its lane's head is the preview_ready being retried.
    const waiting = await until('two deliveries', async () => {
      const log = await deliveries(api, id);
      return log.length === 2 ? log : undefined;
    });
    expect(waiting.find((d) => d.type === 'video.job.done')).toMatchObject({ status: 'pending', attempt: 0, next_attempt_at: null });
    // At least one failed attempt; on a busy machine the 5 s retry may already have failed again.
    const retried = waiting.find((d) => d.type === 'video.job.preview_ready')!;
    expect(retried).toMatchObject({ status: 'pending', response_status: 503 });
    expect(retried.attempt).toBeGreaterThanOrEqual(1);
    failPreview = false;
    // The next attempt comes when the schedule says, then done follows it. The schedule's second
    // retry is 5 minutes after the first: where the machine was slow enough to reach it, the head is
    // sent again at once (POST .../retry, as an operator would), and done still waits for it.
    const head = (await deliveries(api, id)).find((d) => d.type === 'video.job.preview_ready')!;
    const dueInMs = head.next_attempt_at ? max(0, Date.parse(head.next_attempt_at) - Date.now()) : 0;
    if (dueInMs > 10_000) expect((await api.post(`/webhooks/${id}/deliveries/${head.id}/retry`)).status).toBe(202);
    await until('done delivered', () => hits('/ordered').find((seen) => (seen.body as any).type === 'video.job.done'), 30_000);
    const order = hits('/ordered').map((seen) => eventOf(seen, secret).type);
    expect(order.at(-1)).toBe('video.job.done');
    expect(order.length).toBeGreaterThanOrEqual(3);
    expect(new Set(order.slice(0, -1))).toEqual(new Set(['video.job.preview_ready']));
  }, 300_000);
});

describe('receivers that misbehave', () => {
  test('a 5xx is retried 5 s after the attempt and then succeeds; the log shows both attempts', async () => {
    const { accountId, api } = await t.newAccount();
    let calls = 0;
    receiver.route(() => (++calls === 1 ? { status: 500 } : { status: 200 }));
    const { id } = await endpoint(api, ['avatar.ready'], '/flaky');
    expect((await api.post(`/webhooks/${id}/test`)).status).toBe(202);
    const first = await until('first attempt logged', async () => (await deliveries(api, id)).find((d) => d.attempt === 1));
    expect(first).toMatchObject({ type: 'ping', status: 'pending', response_status: 500, last_error: 'Answered 500' });
    // The record's updated_at is when the attempt was settled, on the clock that set its next one.
    const settled = await t.stack.dependencies.webhooks.getDelivery(accountId, id, first.id);
    expect(settled).toMatchObject({ attempt: 1, next_attempt_at: first.next_attempt_at });
    expect(Date.parse(first.next_attempt_at) - Date.parse(settled!.updated_at)).toBe(5_000);
    const second = await until('retried', async () => (await deliveries(api, id)).find((d) => d.attempt === 2), 15_000);
    expect(second).toMatchObject({ status: 'succeeded', response_status: 200, next_attempt_at: null });
    expect(second.attempts.map((a: any) => [a.trigger, a.number, a.outcome, a.response_status, a.message])).toEqual([
      ['automatic', 1, 'failed', 500, 'Answered 500'],
      ['automatic', 2, 'succeeded', 200, 'Answered 200'],
    ]);
    expect(new Set(hits('/flaky').map((seen) => seen.headers['webhook-id'])).size).toBe(1);
  }, 60_000);

  test('410 Gone fails the delivery and disables the endpoint; PATCH enabled:true turns it back on', async () => {
    const { api } = await t.newAccount();
    receiver.route(() => ({ status: 410 }));
    const { id } = await endpoint(api, ['avatar.ready'], '/gone');
    await api.post(`/webhooks/${id}/test`);
    const failed = await until('failed', async () => (await deliveries(api, id)).find((d) => d.status === 'failed'));
    expect(failed).toMatchObject({ attempt: 1, response_status: 410, next_attempt_at: null });
    expect((await api.get(`/webhooks/${id}`)).body.data).toMatchObject({ enabled: false, disabled_reason: 'The endpoint answered 410 Gone' });
    const enabled = await api.patch(`/webhooks/${id}`, { enabled: true });
    expect(enabled.body.data).toMatchObject({ enabled: true, disabled_reason: null });
  }, 60_000);

  test('a redirect to a private address is not followed', async () => {
    const { api } = await t.newAccount();
    receiver.route(() => ({ status: 302, headers: { location: `${bystander.url}/internal` } }));
    const { id } = await endpoint(api, ['avatar.ready'], '/redirect');
    await api.post(`/webhooks/${id}/test`);
    const first = await until('attempted', async () => (await deliveries(api, id)).find((d) => d.attempt === 1));
    expect(first).toMatchObject({ status: 'pending', response_status: 302, last_error: expect.stringContaining('redirects are not followed') });
    expect(bystander.seen).toEqual([]);
  }, 60_000);

  test('a receiver that is down is retried, with the reason in the log', async () => {
    const { api } = await t.newAccount();
    const down = await startLoopbackServer();
    const url = `${down.url}/down`;
    await down.close();
    const made = await api.post('/webhooks', { url, events: ['avatar.ready'] });
    const id = made.body.data.id as string;
    await api.post(`/webhooks/${id}/test`);
    const first = await until('attempted', async () => (await deliveries(api, id)).find((d) => d.attempt === 1));
    expect(first).toMatchObject({ status: 'pending', response_status: null, last_error: 'Connection refused', next_attempt_at: expect.any(String) });
  }, 60_000);
});

describe('the delivery log, retry and ping', () => {
  test('a ping carries the endpoint; a retry resends the same event id, signed anew', async () => {
    const { api } = await t.newAccount();
    receiver.route(() => ({ status: 200 }));
    const { id, secret } = await endpoint(api, ['social.post.published'], '/ping');
    const sent = await api.post(`/webhooks/${id}/test`);
    expect(sent.body.data).toEqual({ event_id: expect.stringMatching(/^evt_/) });
    const ping = eventOf(await until('ping', () => hits('/ping')[0]), secret);
    expect(ping).toMatchObject({ id: sent.body.data.event_id, type: 'ping', data: { id, url: `${receiver.url}/ping` } });
    expect(ping.data).not.toHaveProperty('secret');

    const [delivery] = await until('logged', async () => {
      const log = await deliveries(api, id);
      return log[0]?.status === 'succeeded' ? log : undefined;
    });
    // Sent within the request: the answer is the delivery with the attempt it made.
    const retried = await api.post(`/webhooks/${id}/deliveries/${delivery.id}/retry`);
    expect(retried.status).toBe(202);
    expect(retried.body.data).toMatchObject({ id: delivery.id, status: 'succeeded', attempt: 2 });
    expect(retried.body.data.attempts.map((a: any) => [a.trigger, a.number, a.outcome])).toEqual([
      ['automatic', 1, 'succeeded'],
      ['manual', 1, 'succeeded'],
    ]);
    expect(eventOf(hits('/ping')[1]!, secret).id).toBe(ping.id);
    const page = await api.get(`/webhooks/${id}/deliveries?per_page=1&page=1`);
    expect(page.body.meta).toEqual({ page: 1, per_page: 1, total: 1 });
  }, 60_000);

  test('a body altered in transit fails verification', async () => {
    const { api } = await t.newAccount();
    receiver.route(() => ({ status: 200 }));
    const { id, secret } = await endpoint(api, ['avatar.ready'], '/tamper');
    await api.post(`/webhooks/${id}/test`);
    const seen = await until('ping', () => hits('/tamper')[0]);
    const altered = JSON.stringify({ ...(seen.body as object), type: 'video.job.done' });
    expect(() => verifyWebhook(altered, seen.headers as Record<string, string>, secret)).toThrow();
    expect(() => verifyWebhook(JSON.stringify(seen.body), seen.headers as Record<string, string>, `whsec_${Buffer.from('another secret!!').toString('base64')}`)).toThrow();
  }, 60_000);
});

describe('secrets, "*" and the event list', () => {
  test('a rotated secret: answered once (replayed by its Idempotency-Key), both secrets sign during the overlap', async () => {
    const { api } = await t.newAccount();
    receiver.route(() => ({ status: 204 }));
    const { id, secret: old } = await endpoint(api, ['*'], '/rotated');
    const key = { 'idempotency-key': `rotate-${id}` };
    const rotated = await api.send('POST', `/webhooks/${id}/rotate-secret`, { json: { expires_in_s: 600 }, headers: key });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data).toMatchObject({ id, events: ['*'], secret: expect.stringMatching(/^whsec_/), previous_secret_expires_at: expect.any(String) });
    const replay = await api.send('POST', `/webhooks/${id}/rotate-secret`, { json: { expires_in_s: 600 }, headers: key });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data.secret).toBe(rotated.body.data.secret);
    expect((await api.get(`/webhooks/${id}`)).body.data).not.toHaveProperty('secret');
    expectError(await api.post(`/webhooks/${id}/rotate-secret`, { expires_in_s: 8 * 24 * 3600 }), 400, 'bad_request');

    // A ping reaches "*" and carries both signatures: either secret verifies it.
    await api.post(`/webhooks/${id}/test`);
    const seen = await until('ping', () => hits('/rotated')[0]);
    expect(String(seen.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(eventOf(seen, old).type).toBe('ping');
    expect(eventOf(seen, rotated.body.data.secret).type).toBe('ping');
  }, 60_000);

  test("GET /webhooks/events lists the account's events, with no endpoint at all, and follows them by `after`", async () => {
    const { api } = await t.newAccount();
    const product = await productWithDemo(api, () => t.stack.tasks.idle());
    const listed = await until('the demo event', async () => {
      const page = await api.get('/webhooks/events?limit=5');
      return page.body.data.length > 0 ? page.body : undefined;
    });
    expect(listed.data).toEqual([{ id: expect.stringMatching(/^evt_[0-9a-f]{32}$/), type: 'product.demo.ready', created_at: expect.any(String), data: expect.objectContaining({ id: product.id }) }]);
    expect(listed.meta).toEqual({ next_after: listed.data[0].id });
    expect((await api.get(`/webhooks/events?after=${listed.meta.next_after}`)).body).toEqual({ data: [], meta: { next_after: listed.meta.next_after } });
    expectError(await api.get('/webhooks/events?after=evt_nope'), 400, 'bad_request');
  }, 120_000);
});
