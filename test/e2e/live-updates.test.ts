/**
 * Live updates over the local stack's WebSocket (docs/live-updates.md): a ticket from the REST API, a
 * socket opened with it, records followed by id and pushed as they change, and everything a hostile
 * or careless client sends answered with a clear error on a socket that stays open.
 */
import { request as httpRequest } from 'node:http';
import { randomBytes } from 'node:crypto';
import { startTestStack, type ApiClient, type TestStack } from '#test-support/local-stack';
import { productWithDemo } from '#test-support/jobs';
import { JOB_STAGES } from '#domain/jobs';

let t: TestStack;
beforeAll(async () => {
  t = await startTestStack();
});
afterAll(() => t?.stop());

/** A socket whose messages are kept in order, read by `next`. */
interface Socket {
  send(message: unknown): void;
  next(matching?: (m: any) => boolean, timeoutMs?: number): Promise<any>;
  close(): void;
}

async function ticketOf(api: ApiClient): Promise<{ ticket: string; url: string; expires_at: string }> {
  const answer = await api.post('/updates/tickets');
  expect(answer.status).toBe(201);
  return answer.body.data;
}

async function openSocket(api: ApiClient): Promise<Socket> {
  const { ticket, url } = await ticketOf(api);
  const ws = new WebSocket(`${url}?ticket=${ticket}`);
  const received: any[] = [];
  const waiters: (() => void)[] = [];
  ws.addEventListener('message', (event) => {
    received.push(JSON.parse(String(event.data)));
    waiters.splice(0).forEach((wake) => wake());
  });
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener('open', () => resolve(), { once: true });
    ws.addEventListener('error', () => reject(new Error('the socket did not open')), { once: true });
  });
  return {
    send: (message) => ws.send(typeof message === 'string' ? message : JSON.stringify(message)),
    async next(matching = () => true, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const index = received.findIndex(matching);
        if (index >= 0) return received.splice(0, index + 1).pop();
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching message within ${timeoutMs} ms; received ${JSON.stringify(received)}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => (clearTimeout(timer), resolve()));
        });
      }
    },
    close: () => ws.close(),
  };
}

/** The raw handshake's answer: what a refused connection is told. */
function handshake(url: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url.replace(/^ws/, 'http'), {
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': randomBytes(16).toString('base64') },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 101, body: undefined });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('following a video job', () => {
  test('the socket gets the job as it stands, then each change in order, ending in its final state as GET answers it', async () => {
    const { api } = await t.newAccount();
    const product = await productWithDemo(api, () => t.stack.tasks.idle());
    const socket = await openSocket(api);
    const created = await api.post('/videos', { product_id: product.id, method: 'prompt', prompt: 'amazed', hook_text: 'Wait for it' });
    expect(created.status).toBe(202);
    const id = created.body.data.id as number;
    socket.send({ action: 'subscribe', resource: 'job', id });

    const subscribed = await socket.next((m) => m.type === 'subscribed');
    expect(subscribed).toMatchObject({ type: 'subscribed', resource: 'job', id, data: { id } });
    const seen = [subscribed.data];
    while (!['done', 'failed'].includes(seen.at(-1).status)) {
      const update = await socket.next((m) => m.type === 'update', 120_000);
      expect(update).toMatchObject({ resource: 'job', id });
      seen.push(update.data);
    }

    expect(seen.at(-1).status).toBe('done');
    expect(seen.length).toBeGreaterThan(2);
    for (const [i, job] of seen.entries()) {
      expect(Object.keys(JOB_STAGES)).toContain(job.stage);
      if (i > 0) expect(job.progress).toBeGreaterThanOrEqual(seen[i - 1].progress);
    }
    // The last update is the record exactly as the REST API answers it.
    expect(seen.at(-1)).toEqual((await api.get(`/videos/jobs/${id}`)).body.data);
    socket.close();
  });

  test('a product being normalised is pushed when its demo is ready', async () => {
    const { api } = await t.newAccount();
    const socket = await openSocket(api);
    const form = new FormData();
    form.append('name', 'Glow serum');
    const { makeFixture } = await import('#test-support/media-fixtures');
    const { readFile } = await import('node:fs/promises');
    form.append('demo_video', new Blob([await readFile(await makeFixture('vertical-mp4'))]), 'demo.mp4');
    const created = await api.send('POST', '/products', { body: form });
    expect(created.status).toBe(201);
    socket.send({ action: 'subscribe', resource: 'product', id: created.body.data.id });
    const subscribed = await socket.next((m) => m.type === 'subscribed');
    let product = subscribed.data;
    while (product.demo_video.status === 'processing') product = (await socket.next((m) => m.type === 'update', 60_000)).data;
    expect(product.demo_video.status).toBe('ready');
    socket.close();
  });
});

describe('what a socket is refused', () => {
  test('a made-up ticket, a used one and none are refused at the handshake with 401 and the reason', async () => {
    const { api } = await t.newAccount();
    const { ticket, url } = await ticketOf(api);
    const madeUp = await handshake(`${url}?ticket=rsu_${randomBytes(32).toString('base64url')}`);
    expect(madeUp).toMatchObject({ status: 401, body: { code: 'unauthorized', error: expect.stringContaining('POST /api/v1/updates/tickets') } });
    expect((await handshake(`${url}?ticket=${ticket}`)).status).toBe(101);
    expect((await handshake(`${url}?ticket=${ticket}`)).status).toBe(401);
    expect((await handshake(url)).body.error).toMatch(/\?ticket=/);
  });

  test('a WebSocket client with a bad ticket never opens', async () => {
    const { api } = await t.newAccount();
    const { url } = await ticketOf(api);
    const ws = new WebSocket(`${url}?ticket=rsu_nope`);
    // Node's WebSocket reports a refused handshake as `error` (a browser's also fires `close`).
    const outcome = await new Promise<string>((resolve) => {
      ws.addEventListener('open', () => resolve('open'));
      ws.addEventListener('error', () => resolve('refused'));
      ws.addEventListener('close', () => resolve('refused'));
    });
    expect(outcome).toBe('refused');
  });

  test('a ticket needs a key with the read scope, or the session', async () => {
    const { api } = await t.newAccount({ scopes: ['write'] });
    const answer = await api.post('/updates/tickets');
    expect(answer.status).toBe(403);
  });

  test('malformed and unknown messages, foreign and unknown ids each get a clear error, and the socket stays open', async () => {
    const { api } = await t.newAccount();
    const other = await t.newCustomer();
    const socket = await openSocket(api);
    const cases: [unknown, string, RegExp][] = [
      ['not json', 'bad_request', /JSON object/],
      [[1, 2], 'bad_request', /JSON object/],
      [{ action: 'dance' }, 'bad_request', /Unknown action "dance"/],
      [{ action: 'subscribe', resource: 'invoice', id: 1 }, 'bad_request', /`resource` must be/],
      [{ action: 'subscribe', resource: 'job', id: -3 }, 'bad_request', /`id` must be a positive integer/],
      [{ action: 'subscribe', resource: 'product', id: other.productId }, 'not_found', new RegExp(`Product ${other.productId} not found`)],
      [{ action: 'subscribe', resource: 'job', id: 987654 }, 'not_found', /Job 987654 not found/],
    ];
    for (const [message, code, text] of cases) {
      socket.send(message);
      const answer = await socket.next();
      expect(answer).toMatchObject({ type: 'error', code, message: expect.stringMatching(text) });
    }
    socket.send({ action: 'ping' });
    expect(await socket.next()).toEqual({ type: 'pong' });
    socket.close();
  });

  test("another account's product is never pushed to the socket that asked for it", async () => {
    const { api } = await t.newAccount();
    const other = await t.newCustomer();
    const socket = await openSocket(api);
    socket.send({ action: 'subscribe', resource: 'product', id: other.productId });
    expect(await socket.next()).toMatchObject({ type: 'error', code: 'not_found' });
    expect((await other.api.patch(`/products/${other.productId}`, { name: 'Renamed' })).status).toBe(200);
    socket.send({ action: 'ping' });
    // Had the rename been pushed, it would have come before the pong.
    expect(await socket.next()).toEqual({ type: 'pong' });
    socket.close();
  });
});
