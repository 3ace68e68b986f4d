/**
 * The client's own behaviour against a fetch double (no stack): what it sends (auth, Idempotency-Key,
 * multipart bodies), how it waits for a job, and how failures surface. The same calls against the
 * real local stack are in client-e2e.test.ts.
 */
import { ApiError, createClient, StorageUploadError, UnexpectedResponseError, WaitTimeoutError, type FetchLike, type WebSocketLike } from '#client/index';
const { min } = Math;

const BASE = 'https://api.test/api/v1';
const KEY = 'rsk_test';

interface Sent {
  method: string;
  path: string;
  headers: Headers;
  request: Request;
}

/** A fetch double routing `METHOD /path` to a handler; records every request it received. */
function fakeApi(routes: Record<string, (request: Request, n: number) => Response | Promise<Response>>) {
  const sent: Sent[] = [];
  const counts = new Map<string, number>();
  const fetch: FetchLike = async (request) => {
    const path = new URL(request.url).pathname.replace('/api/v1', '');
    const route = `${request.method} ${path}`;
    sent.push({ method: request.method, path, headers: request.headers, request });
    const n = (counts.get(route) ?? 0) + 1;
    counts.set(route, n);
    const handler = routes[route];
    if (!handler) return json(404, { error: `no route ${route}`, code: 'not_found' });
    return handler(request, n);
  };
  return { fetch, sent };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'x-request-id': 'req-1', ...headers } });

const job = (fields: Record<string, unknown>) => ({ id: 5, status: 'queued', stage: 'queued', progress: 0, queue_position: null, ...fields });

describe('requests', () => {
  test('every request carries the API key as a bearer token', async () => {
    const api = fakeApi({ 'GET /usage': () => json(200, { data: {} }) });
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, fetch: api.fetch });
    await rs.GET('/usage');
    expect(api.sent[0]!.headers.get('authorization')).toBe(`Bearer ${KEY}`);
  });

  test("listTakes answers a job's takes; approveJob sends the take it names", async () => {
    const api = fakeApi({
      'GET /videos/jobs/5/takes': () => json(200, { data: [{ take: 1, current: false }, { take: 2, current: true }] }),
      'POST /videos/jobs/5/approve': () => json(200, { data: job({ status: 'composing' }) }),
    });
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, fetch: api.fetch });
    expect((await rs.listTakes(5)).map((t) => t.take)).toEqual([1, 2]);
    await rs.approveJob(5, { take: 1 });
    expect(await api.sent[1]!.request.json()).toEqual({ take: 1 });
  });

  test('POST /videos gets a UUID Idempotency-Key, the same on every retry of the call, a new one per call', async () => {
    const api = fakeApi({
      'POST /videos': (_, n) => (n === 1 ? json(429, { error: 'slow down', code: 'rate_limited' }, { 'retry-after': '0' }) : json(202, { data: job({ id: n }) })),
    });
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, fetch: api.fetch });
    await rs.createVideoJob({ product_id: 1, method: 'prompt', prompt: 'shocked' });
    await rs.createVideoJob({ product_id: 1, method: 'prompt', prompt: 'shocked' });
    const keys = api.sent.map((s) => s.headers.get('idempotency-key'));
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  test("a caller's Idempotency-Key is kept, and other POSTs get none", async () => {
    const api = fakeApi({
      'POST /videos': () => json(202, { data: job({}) }),
      'POST /videos/jobs/5/approve': () => json(202, { data: job({ status: 'processing' }) }),
    });
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, fetch: api.fetch });
    await rs.createVideoJob({ product_id: 1, method: 'prompt', prompt: 'shocked', idempotencyKey: 'order-42' });
    await rs.POST('/videos', { body: { product_id: 1, method: 'reuse', reaction_id: 3 }, headers: { 'Idempotency-Key': 'raw-7' } });
    await rs.approveJob(5, { hook_text: null });
    expect(api.sent.map((s) => s.headers.get('idempotency-key'))).toEqual(['order-42', 'raw-7', null]);
  });

  test('quotes are the same requests with dry_run=true, answered by their quote; the creates send no dry_run', async () => {
    const quote = { valid: true, units: 1, allowance: { limit: 3, used: 0, reserved: 0, remaining: 3 }, estimated_seconds: 4 };
    const api = fakeApi({
      'POST /videos': (request) => (new URL(request.url).searchParams.get('dry_run') === 'true' ? json(200, { data: quote }) : json(202, { data: job({}) })),
      'POST /videos/jobs/5/regenerate': () => json(200, { data: quote }),
    });
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, fetch: api.fetch });
    expect(await rs.quoteVideoJob({ product_id: 1, method: 'prompt', prompt: 'shocked' })).toEqual(quote);
    expect(await rs.createVideoJob({ product_id: 1, method: 'prompt', prompt: 'shocked' })).toMatchObject({ id: 5 });
    expect(await rs.quoteRegeneration(5, { prompt: 'laughing' })).toEqual(quote);
    expect(api.sent.map((s) => new URL(s.request.url).search)).toEqual(['?dry_run=true', '', '?dry_run=true']);
    // A quote where a job was expected (or the other way round) is said, not passed on as the wrong shape.
    await expect(rs.regenerateJob(5)).rejects.toThrow('got a dry-run quote');
  });

  test('a product with a demo upload is multipart: the text fields and a demo_video file part', async () => {
    const api = fakeApi({ 'POST /products': () => json(201, { data: { id: 1 } }) });
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, fetch: api.fetch });
    await rs.createProduct({ name: 'Glow Serum', description: 'bright', demoVideo: Buffer.from('fake mp4 bytes') });
    const form = await api.sent[0]!.request.formData();
    expect(api.sent[0]!.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(form.get('name')).toBe('Glow Serum');
    expect(form.get('description')).toBe('bright');
    const file = form.get('demo_video') as File;
    expect(file.name).toBe('demo.mp4');
    expect(await file.text()).toBe('fake mp4 bytes');
  });

  test('without a file a create is JSON', async () => {
    const api = fakeApi({ 'POST /products': () => json(201, { data: { id: 1 } }) });
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, fetch: api.fetch });
    await rs.createProduct({ name: 'Plain' });
    expect(api.sent[0]!.headers.get('content-type')).toBe('application/json');
    expect(await api.sent[0]!.request.json()).toEqual({ name: 'Plain' });
  });

  test('a job with a reference clip is multipart with video_source=upload; an avatar from an image sends only the image', async () => {
    const api = fakeApi({ 'POST /videos': () => json(202, { data: job({}) }), 'POST /avatars': () => json(201, { data: { id: 2 } }) });
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, fetch: api.fetch });
    const clip = new File([new Uint8Array([0, 0, 0, 24])], 'face.mov');
    await rs.createVideoJob({ product_id: 1, method: 'motion', avatar_id: 2, referenceVideo: clip });
    await rs.createAvatar({ image: { data: new Uint8Array([137, 80, 78, 71]), filename: 'me.png' } });

    const jobForm = await api.sent[0]!.request.formData();
    expect(Object.fromEntries([...jobForm.keys()].map((k) => [k, typeof jobForm.get(k) === 'string' ? jobForm.get(k) : (jobForm.get(k) as File).name]))).toEqual({
      product_id: '1',
      method: 'motion',
      avatar_id: '2',
      video_source: 'upload',
      reference_video: 'face.mov',
    });
    const avatarForm = await api.sent[1]!.request.formData();
    expect([...avatarForm.keys()]).toEqual(['image']);
    expect((avatarForm.get('image') as File).name).toBe('me.png');
  });
});

describe('plans', () => {
  const plans = { billing: 'stripe', plans: [{ name: 'free', price: { amount: 0, currency: 'usd', interval: 'month' }, monthly_allowance: 3 }] };
  const account = { id: 1, name: 'Acme', plan: 'free', pending_plan: null, plan_changes_at: null, created_at: '2026-11-01T00:00:00.000Z' };

  test('listPlans is GET /plans, unwrapped; changePlan is PUT /account/plan {plan}, with the session\'s CSRF token and no key', async () => {
    const api = fakeApi({
      'GET /plans': () => json(200, { data: plans }),
      'PUT /account/plan': () => json(202, { data: { account, change: 'checkout', checkout_url: 'https://checkout.stripe.com/c/pay/cs_test_1' } }),
    });
    const rs = createClient({ baseUrl: BASE, session: { csrfToken: () => 'csrf-1' }, fetch: api.fetch });
    expect(await rs.listPlans()).toEqual(plans);
    const change = await rs.changePlan('pro');
    expect(change).toEqual({ account, change: 'checkout', checkout_url: 'https://checkout.stripe.com/c/pay/cs_test_1' });
    const put = api.sent[1]!;
    expect(put.headers.get('x-csrf-token')).toBe('csrf-1');
    expect(put.headers.get('authorization')).toBeNull();
    expect(await put.request.json()).toEqual({ plan: 'pro' });
  });

  test("a refusal (a key on the session's route) is an ApiError with its code", async () => {
    const api = fakeApi({ 'PUT /account/plan': () => json(403, { error: "Plans change only from the studio's session", code: 'forbidden', request_id: 'r', doc_url: '/api/v1/docs/errors#forbidden' }) });
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, fetch: api.fetch });
    await expect(rs.changePlan('business')).rejects.toMatchObject({ status: 403, code: 'forbidden' });
  });
});

describe('uploadFile (direct uploads)', () => {
  const form = { id: 'up-1', purpose: 'demo_video', method: 'POST', url: 'https://storage.test/media', fields: { key: 'uploads/7/up-1', policy: 'p', 'Content-Type': 'video/mp4' }, max_bytes: 4, expires_at: '2026-11-25T13:00:00Z' };

  test('declares type, size and name, then sends the form fields and the file last to storage, without the API key', async () => {
    const { fetch, sent } = fakeApi({ 'POST /uploads': () => json(201, { data: form }), 'POST /media': () => new Response(null, { status: 204 }) });
    const upload = await createClient({ baseUrl: BASE, apiKey: KEY, fetch }).uploadFile('demo_video', { data: new Uint8Array([1, 2, 3, 4]), filename: 'demo.mp4', type: 'video/mp4' });
    expect(upload.id).toBe('up-1');
    expect(await sent[0]!.request.json()).toEqual({ purpose: 'demo_video', content_type: 'video/mp4', size_bytes: 4, filename: 'demo.mp4' });
    const storage = sent[1]!;
    expect(storage.request.url).toBe('https://storage.test/media');
    expect(storage.headers.get('authorization')).toBeNull();
    const body = await storage.request.formData();
    expect([...body.keys()]).toEqual(['key', 'policy', 'Content-Type', 'file']);
    expect(Buffer.from(await (body.get('file') as Blob).arrayBuffer())).toEqual(Buffer.from([1, 2, 3, 4]));
  });

  test("storage's refusal is a StorageUploadError with its status and body; an untyped file asks for its type before any request", async () => {
    const { fetch, sent } = fakeApi({ 'POST /uploads': () => json(201, { data: form }), 'POST /media': () => new Response('<Error><Code>AccessDenied</Code></Error>', { status: 403 }) });
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, fetch });
    const refused = await rs.uploadFile('demo_video', new Blob([new Uint8Array([1])], { type: 'video/mp4' })).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StorageUploadError);
    expect(refused).toMatchObject({ status: 403, body: expect.stringContaining('AccessDenied') });
    const before = sent.length;
    await expect(rs.uploadFile('demo_video', new Uint8Array([1]))).rejects.toThrow(TypeError);
    expect(sent.length).toBe(before);
  });
});

describe('errors', () => {
  test("a failure is an ApiError with the envelope's code and message, the status and the request id", async () => {
    const api = fakeApi({
      'GET /videos/jobs/9': () => json(404, { error: 'video job not found', code: 'not_found' }, { 'x-request-id': 'req-404' }),
    });
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, fetch: api.fetch });
    const error = await rs.getJob(9).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'not_found', message: 'video job not found', requestId: 'req-404', retryAfterS: null });
  });

  test('a 500 gives its request id from the body when the header is missing; a body that is not the envelope is still an ApiError', async () => {
    const api = fakeApi({
      'GET /usage': () => new Response(JSON.stringify({ error: 'Internal server error', code: 'internal_error', request_id: 'req-500' }), { status: 500 }),
      'GET /videos/1': () => new Response('<html>bad gateway</html>', { status: 502 }),
    });
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, fetch: api.fetch });
    await expect(rs.getVideo(1)).rejects.toMatchObject({ status: 502, code: 'unknown_error', requestId: null });
    const { error, response } = await rs.GET('/usage');
    expect(ApiError.from(response, error)).toMatchObject({ status: 500, code: 'internal_error', requestId: 'req-500' });
  });

  test('keeps the field at fault and the reference link, made absolute against the answer’s URL', () => {
    const envelope = { error: 'Invalid request: hook_text: too long', code: 'bad_request', param: 'hook_text', request_id: 'req-1', doc_url: '/api/v1/docs/errors#bad_request' };
    const answered = Object.defineProperty(new Response(null, { status: 400 }), 'url', { value: 'https://api.example.com/api/v1/videos' });
    expect(ApiError.from(answered, envelope)).toMatchObject({ param: 'hook_text', requestId: 'req-1', docUrl: 'https://api.example.com/api/v1/docs/errors#bad_request' });
    // A Response built by hand has no URL: the link stays as the API wrote it.
    expect(ApiError.from(new Response(null, { status: 400 }), envelope)).toMatchObject({ param: 'hook_text', docUrl: '/api/v1/docs/errors#bad_request' });
    expect(ApiError.from(new Response(null, { status: 404 }), { error: 'x', code: 'not_found' })).toMatchObject({ param: null, docUrl: null });
  });

  test('a refusal whose Retry-After is above the cap comes back at once, with retryAfterS', async () => {
    const api = fakeApi({ 'GET /videos/jobs/5': () => json(429, { error: 'slow down', code: 'rate_limited' }, { 'retry-after': '40' }) });
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, fetch: api.fetch, retry: { maxDelayMs: 10_000 } });
    await expect(rs.getJob(5)).rejects.toMatchObject({ status: 429, code: 'rate_limited', retryAfterS: 40 });
    expect(api.sent).toHaveLength(1);
  });
});

describe('an answer that is not JSON (not the API)', () => {
  const html = (status: number) => new Response('<!doctype html><title>Reaction Studio</title>', { status, headers: { 'content-type': 'text/html; charset=utf-8' } });

  test('HTML where JSON was due names the likely cause: a baseUrl without /api/v1', async () => {
    // The studio's page is what the server answers outside /api/v1.
    const rs = createClient({ baseUrl: 'https://api.test', apiKey: KEY, fetch: async () => html(200) });
    const error = await rs.GET('/videos').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error).toMatchObject({
      message: 'got HTML (text/html; charset=utf-8) from GET /videos, status 200: is baseUrl missing /api/v1? (it is https://api.test)',
      status: 200,
      contentType: 'text/html; charset=utf-8',
      request: { method: 'GET', url: 'https://api.test/videos' },
    });
  });

  test("another server's 404 page is the same error, from the helpers too", async () => {
    const rs = createClient({ baseUrl: 'https://api.test/v1', apiKey: KEY, fetch: async () => html(404) });
    await expect(rs.getJob(5)).rejects.toThrow("got HTML (text/html; charset=utf-8) from GET /v1/videos/jobs/5, status 404: is baseUrl missing /api/v1? (it is https://api.test/v1)");
  });

  test('with the right prefix the hint is about the host, and a non-HTML type is named as it came', async () => {
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, fetch: async () => new Response('hello', { headers: { 'content-type': 'text/plain' } }) });
    await expect(rs.GET('/usage')).rejects.toThrow(`got a non-JSON answer (text/plain) from GET /api/v1/usage, status 200: is baseUrl the API's root? (it is ${BASE})`);
  });

  test('a body asked for as something else (parseAs) and bodiless answers pass', async () => {
    const png = new Response(new Uint8Array([137, 80, 78, 71]), { headers: { 'content-type': 'image/png' } });
    const api = fakeApi({ 'POST /captions/preview': () => png, 'DELETE /videos/3': () => new Response(null, { status: 204 }) });
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, fetch: api.fetch });
    const preview = await rs.POST('/captions/preview', { body: { text: 'hi' } as never, parseAs: 'blob' });
    expect(preview.data).toBeInstanceOf(Blob);
    await expect(rs.DELETE('/videos/{id}', { params: { path: { id: 3 } } })).resolves.toMatchObject({ response: { status: 204 } });
  });
});

/**
 * A WebSocket double speaking the live-updates protocol: it opens (or fails to), answers a subscribe
 * with `messages` in order, then stays open or closes. It records the URLs opened and what was sent.
 */
function scriptedSocket(messages: unknown[], options: { opens?: boolean; thenClose?: boolean } = {}) {
  const opened: string[] = [];
  const sent: unknown[] = [];
  const later = (fn: () => void) => setTimeout(fn, 1);
  class Socket implements WebSocketLike {
    private listeners = new Map<string, ((event: { data: unknown }) => void)[]>();
    constructor(url: string) {
      opened.push(url);
      later(() => this.emit(options.opens === false ? 'error' : 'open'));
    }
    addEventListener(type: string, listener: (event: { data: unknown }) => void) {
      this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
    }
    send(data: string) {
      const message = JSON.parse(data) as { action: string };
      sent.push(message);
      if (message.action !== 'subscribe') return;
      for (const m of messages) later(() => this.emit('message', JSON.stringify(m)));
      if (options.thenClose) later(() => this.emit('close'));
    }
    close() {}
    private emit(type: string, data?: string) {
      for (const listener of this.listeners.get(type) ?? []) listener({ data });
    }
  }
  return { WebSocket: Socket, opened, sent };
}

describe('waitForJob, over live updates', () => {
  const states = [
    job({ status: 'queued', stage: 'queued', progress: 0, queue_position: 1 }),
    job({ status: 'processing', stage: 'generating_reaction', progress: 15 }),
    job({ status: 'processing', stage: 'composing', progress: 80 }),
    job({ status: 'done', stage: 'done', progress: 100, video_id: 3 }),
  ];
  const ticket = () => json(201, { data: { ticket: 'rsu_t', url: 'wss://updates.test/v1', expires_at: '2026-12-01T00:00:00.000Z' } });
  const subscribed = (data: unknown) => ({ type: 'subscribed', resource: 'job', id: 5, data });
  const update = (data: unknown) => ({ type: 'update', resource: 'job', id: 5, data });

  test('follows the job on the socket: each update is its progress, and nothing polls it', async () => {
    const socket = scriptedSocket([subscribed(states[0]), update(states[1]), update(states[2]), update(states[3])]);
    const api = fakeApi({ 'POST /updates/tickets': ticket });
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, fetch: api.fetch, webSocket: socket.WebSocket });
    const seen: string[] = [];
    await expect(rs.waitForJob(5, { onProgress: (j) => seen.push(j.stage) })).resolves.toMatchObject({ status: 'done', video_id: 3 });
    expect(seen).toEqual(['queued', 'generating_reaction', 'composing', 'done']);
    expect(api.sent.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /updates/tickets']);
    expect(socket.opened).toEqual(['wss://updates.test/v1?ticket=rsu_t']);
    expect(socket.sent).toEqual([{ action: 'subscribe', resource: 'job', id: 5 }]);
  });

  test("updates about other records on the same socket are not this job's", async () => {
    const other = { type: 'update', resource: 'job', id: 6, data: job({ id: 6, status: 'done', stage: 'done', progress: 100 }) };
    const socket = scriptedSocket([subscribed(states[1]), other, update(states[3])]);
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, fetch: fakeApi({ 'POST /updates/tickets': ticket }).fetch, webSocket: socket.WebSocket });
    await expect(rs.waitForJob(5)).resolves.toMatchObject({ id: 5, status: 'done' });
  });

  test('a socket that cannot open hands the wait to polling', async () => {
    const socket = scriptedSocket([], { opens: false });
    const api = fakeApi({ 'POST /updates/tickets': ticket, 'GET /videos/jobs/5': (_, n) => json(200, { data: states[min(n, 4) - 1] }) });
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, fetch: api.fetch, webSocket: socket.WebSocket });
    await expect(rs.waitForJob(5, { intervalMs: 1 })).resolves.toMatchObject({ status: 'done' });
    expect(api.sent.filter((r) => r.method === 'GET')).toHaveLength(4);
  });

  test('a socket closing mid-way hands over to polling, which carries on from where the socket left it', async () => {
    const socket = scriptedSocket([subscribed(states[0]), update(states[1])], { thenClose: true });
    const api = fakeApi({ 'POST /updates/tickets': ticket, 'GET /videos/jobs/5': (_, n) => json(200, { data: states[min(n + 1, 3)] }) });
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, fetch: api.fetch, webSocket: socket.WebSocket });
    const seen: string[] = [];
    await expect(rs.waitForJob(5, { intervalMs: 1, onProgress: (j) => seen.push(j.stage) })).resolves.toMatchObject({ status: 'done' });
    expect(seen).toEqual(['queued', 'generating_reaction', 'composing', 'done']);
  });

  test('a refused ticket polls instead', async () => {
    const socket = scriptedSocket([subscribed(states[3])]);
    const api = fakeApi({ 'POST /updates/tickets': () => json(403, { error: 'needs read', code: 'forbidden' }), 'GET /videos/jobs/5': () => json(200, { data: states[3] }) });
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, fetch: api.fetch, webSocket: socket.WebSocket });
    await expect(rs.waitForJob(5, { intervalMs: 1 })).resolves.toMatchObject({ status: 'done' });
    expect(socket.opened).toEqual([]);
  });

  test("an error about the subscription (a job that is not the account's) polls, and the poll's 404 is the caller's ApiError", async () => {
    const socket = scriptedSocket([{ type: 'error', code: 'not_found', message: 'Job 5 not found', resource: 'job', id: 5 }]);
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, fetch: fakeApi({ 'POST /updates/tickets': ticket }).fetch, webSocket: socket.WebSocket });
    await expect(rs.waitForJob(5, { intervalMs: 1 })).rejects.toMatchObject({ name: 'ApiError', code: 'not_found' });
  });

  test('waitForDemo follows the product the same way', async () => {
    const product = (status: string) => ({ id: 2, name: 'Glow', demo_video: { status } });
    const socket = scriptedSocket([
      { type: 'subscribed', resource: 'product', id: 2, data: product('processing') },
      { type: 'update', resource: 'product', id: 2, data: product('ready') },
    ]);
    const api = fakeApi({ 'POST /updates/tickets': ticket });
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, fetch: api.fetch, webSocket: socket.WebSocket });
    await expect(rs.waitForDemo(2)).resolves.toMatchObject({ demo_video: { status: 'ready' } });
    expect(socket.sent).toEqual([{ action: 'subscribe', resource: 'product', id: 2 }]);
  });
});

describe('waitForJob, polling (a client without a WebSocket)', () => {
  const timeline = [
    job({ status: 'queued', stage: 'queued', progress: 0, queue_position: 2 }),
    job({ status: 'queued', stage: 'queued', progress: 0, queue_position: 1 }),
    job({ status: 'queued', stage: 'queued', progress: 0, queue_position: 1 }),
    job({ status: 'processing', stage: 'generating_reaction', progress: 15 }),
    job({ status: 'processing', stage: 'generating_reaction', progress: 15 }),
    job({ status: 'processing', stage: 'composing', progress: 80 }),
    job({ status: 'done', stage: 'done', progress: 100, video_id: 3 }),
  ];
  const polled = (states: unknown[]) => fakeApi({ 'GET /videos/jobs/5': (_, n) => json(200, { data: states[min(n, states.length) - 1] }) });

  test('polls until done and reports each change of status, stage, progress or queue position once', async () => {
    const api = polled(timeline);
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, webSocket: false, fetch: api.fetch });
    const seen: [string, number, number | null, boolean][] = [];
    const done = await rs.waitForJob(5, { intervalMs: 1, onProgress: (j, previous) => seen.push([j.stage, j.progress, j.queue_position, previous !== undefined]) });
    expect(done).toMatchObject({ status: 'done', video_id: 3 });
    expect(api.sent).toHaveLength(timeline.length);
    expect(seen).toEqual([
      ['queued', 0, 2, false],
      ['queued', 0, 1, true],
      ['generating_reaction', 15, null, true],
      ['composing', 80, null, true],
      ['done', 100, null, true],
    ]);
  });

  test('sends the last answer\'s ETag back, and takes a 304 as the same job', async () => {
    const tagged = (state: object, tag: string) => json(200, { data: state }, { etag: tag });
    const api = fakeApi({
      'GET /videos/jobs/5': (request, n) => {
        if (n === 1) return tagged(timeline[3]!, '"a"');
        if (n === 2) return request.headers.get('if-none-match') === '"a"' ? new Response(null, { status: 304, headers: { etag: '"a"' } }) : json(500, { error: 'no tag', code: 'internal_error' });
        return tagged(timeline[6]!, '"b"');
      },
    });
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, webSocket: false, fetch: api.fetch });
    const seen: string[] = [];
    await expect(rs.waitForJob(5, { intervalMs: 1, onProgress: (j) => seen.push(j.stage) })).resolves.toMatchObject({ status: 'done' });
    expect(api.sent.map((request) => request.headers.get('if-none-match'))).toEqual([null, '"a"', '"a"']);
    expect(seen).toEqual(['generating_reaction', 'done']);
  });

  test('a failed job settles the wait too: the caller reads its error', async () => {
    const api = polled([job({ status: 'processing', stage: 'preparing', progress: 5 }), job({ status: 'failed', stage: 'failed', progress: 100, error: { code: 'input_deleted', message: 'gone' } })]);
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, webSocket: false, fetch: api.fetch });
    await expect(rs.waitForJob(5, { intervalMs: 1 })).resolves.toMatchObject({ status: 'failed', error: { code: 'input_deleted' } });
  });

  test("stops at preview_ready only when asked; otherwise waits past it", async () => {
    const states = [job({ status: 'processing', stage: 'rendering_preview', progress: 60 }), job({ status: 'preview_ready', stage: 'awaiting_approval', progress: 70 }), job({ status: 'done', stage: 'done', progress: 100 })];
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, webSocket: false, fetch: polled(states).fetch });
    await expect(rs.waitForJob(5, { intervalMs: 1, until: 'preview_ready' })).resolves.toMatchObject({ status: 'preview_ready' });
    const again = createClient({ baseUrl: BASE, apiKey: KEY, webSocket: false, fetch: polled(states).fetch });
    await expect(again.waitForJob(5, { intervalMs: 1 })).resolves.toMatchObject({ status: 'done' });
  });

  test('gives up after timeoutMs with the last job seen', async () => {
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, webSocket: false, fetch: polled([job({})]).fetch });
    const error = await rs.waitForJob(5, { intervalMs: 5, timeoutMs: 30 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as WaitTimeoutError).last).toMatchObject({ id: 5, status: 'queued' });
  });

  test('an abort ends the wait with the reason, even mid-sleep', async () => {
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, webSocket: false, fetch: polled([job({})]).fetch });
    const controller = new AbortController();
    const waiting = rs.waitForJob(5, { intervalMs: 60_000, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user left')), 20);
    await expect(waiting).rejects.toThrow('user left');
  });

  test('a 404 while polling is an ApiError, not a wait until the timeout', async () => {
    const rs = createClient({ baseUrl: BASE, apiKey: KEY, webSocket: false, fetch: fakeApi({}).fetch });
    await expect(rs.waitForJob(5, { intervalMs: 1 })).rejects.toMatchObject({ name: 'ApiError', code: 'not_found' });
  });
});
