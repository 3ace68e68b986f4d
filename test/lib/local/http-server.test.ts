/**
 * The local HTTP entry against clients that send too much, send it anonymously, or break HTTP itself:
 * each one reads an answer in the envelope, with no EPIPE or ECONNRESET on the way. The key store
 * is a stub: nothing here gets as far as a handler that needs another port.
 */
import { request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createLocalApiServer } from '#local/http-server';
import { generateKeyMaterial, hashKey, type ApiKeyRecord } from '#domain/api-keys';
import type { ApiKeyStore } from '#ports/api-key-store';
import { multipartBody } from '#test-support/hostile-requests';
import { testDependencies } from '#test-support/wiring';
const { min } = Math;

const key = generateKeyMaterial();

/** What the early key check sees: `known` makes `key` a good key; `failure` makes the store fail. */
const keyStore = { known: false, failure: undefined as Error | undefined, lookups: 0 };
const record: ApiKeyRecord = { id: 1, account_id: 1, prefix: key.prefix, scopes: ['read', 'write'], mode: 'live', created_at: 'x', last_used_at: null, revoked_at: null };
const apiKeys = {
  findByHash: async (hash: string) => {
    keyStore.lookups++;
    if (keyStore.failure) throw keyStore.failure;
    return keyStore.known && hash === hashKey(key.raw) ? record : undefined;
  },
  recordUse: async () => undefined,
} as unknown as ApiKeyStore;
const dependencies = () => testDependencies({ apiKeys });

const MB = 1024 * 1024;
/** One chunk, sent over and over: a 51 MB upload without 51 MB in memory. */
const CHUNK = Buffer.alloc(256 * 1024, 0x61);
const DEMO_PREFIX = multipartBody([{ name: 'demo_video', filename: 'big.mp4', contentType: 'video/mp4', value: '' }], { close: false });

let server: Server;
let base: string;
beforeAll(async () => {
  server = createLocalApiServer({ dependencies });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => Object.assign(keyStore, { known: false, failure: undefined, lookups: 0 }));

function knowTheKey(): void {
  keyStore.known = true;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
}

function expectEnvelope(answer: Answer, status: number, code: string): void {
  expect({ status: answer.status, code: answer.body?.code, type: answer.headers['content-type'] }).toEqual({
    status,
    code,
    type: 'application/json; charset=utf-8',
  });
  expect(typeof answer.body.error).toBe('string');
  expect(answer.headers['x-request-id']).toBeTruthy();
}

interface Upload {
  headers?: Record<string, string>;
  prefix?: Buffer;
  bytes: number;
  /** node:http only: false streams the body chunked. */
  declareLength?: boolean;
  /** Sends this many bytes and no more until the answer is in: it must come before the body is read. */
  holdAt?: number;
}

/** The answer, once the connection closed with no EPIPE or ECONNRESET on the way. */
function upload(path: string, options: Upload): Promise<Answer> {
  const prefix = options.prefix ?? Buffer.alloc(0);
  const total = prefix.length + options.bytes;
  const headers = { ...options.headers, ...(options.declareLength === false ? {} : { 'content-length': String(total) }) };
  return new Promise((resolve, reject) => {
    let answer: Answer | undefined;
    let closed = false;
    const settle = () => answer && closed && resolve(answer);
    const req = httpRequest(`${base}${path}`, { method: 'POST', headers }, (res) =>
      collect(res).then((got) => {
        answer = got;
        settle();
      }, reject),
    );
    req.on('error', reject);
    // node:http stops sending by itself once it has read an answer that closes the connection.
    req.on('close', () => {
      closed = true;
      settle();
    });
    let sent = 0;
    const pump = () => {
      while (sent < options.bytes) {
        if (options.holdAt !== undefined && sent >= options.holdAt) return;
        const n = min(CHUNK.length, options.bytes - sent);
        sent += n;
        if (!req.write(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n))) return void req.once('drain', pump);
      }
      req.end();
    };
    req.write(prefix);
    pump();
  });
}

async function collect(res: import('node:http').IncomingMessage): Promise<Answer> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return { status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** Node's fetch with a streamed (so chunked) body. */
async function fetchUpload(path: string, options: Omit<Upload, 'declareLength'>): Promise<Answer> {
  let sent = 0;
  let prefix: Buffer | undefined = options.prefix;
  let answered!: () => void;
  const answer = new Promise<void>((resolve) => (answered = resolve));
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (prefix) {
        controller.enqueue(new Uint8Array(prefix));
        prefix = undefined;
        return;
      }
      if (options.holdAt !== undefined && sent >= options.holdAt) await answer;
      if (sent >= options.bytes) return controller.close();
      const n = min(CHUNK.length, options.bytes - sent);
      sent += n;
      controller.enqueue(CHUNK.subarray(0, n));
    },
  });
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: options.headers, body, duplex: 'half' } as RequestInit);
  answered();
  const text = await res.text();
  return { status: res.status, headers: Object.fromEntries(res.headers), body: text ? JSON.parse(text) : undefined };
}

/** Raw bytes on a socket, for what no HTTP client would send; the whole answer, parsed. */
function raw(text: string | Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const answer = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = answer.split('\r\n\r\n');
      const [statusLine, ...lines] = head!.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      try {
        resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(rest.join('\r\n')) });
      } catch {
        reject(new Error(`not one answer in the envelope: ${answer.slice(0, 500)}`));
      }
    });
    socket.write(text);
  });
}

const multipartHeaders = { 'content-type': DEMO_PREFIX.contentType };

describe('uploads over the route limit', () => {
  test('node:http declaring a 51 MB demo video reads the 413 before sending it, key or no key', async () => {
    const answer = await upload('/api/v1/products', { headers: multipartHeaders, prefix: DEMO_PREFIX.body, bytes: 51 * MB, holdAt: MB });
    expectEnvelope(answer, 413, 'payload_too_large');
    expect(answer.headers.connection).toBe('close');
    expect(keyStore.lookups).toBe(0);
  });

  test('fetch streaming a 52 MB demo video with a good key reads the 413 sent while it was uploading', async () => {
    knowTheKey();
    const answer = await fetchUpload('/api/v1/products', {
      headers: { ...multipartHeaders, authorization: `Bearer ${key.raw}` },
      prefix: DEMO_PREFIX.body,
      bytes: 52 * MB,
    });
    expectEnvelope(answer, 413, 'payload_too_large');
  });

  test('node:http streaming 52 MB chunked with a good key reads the 413', async () => {
    knowTheKey();
    const answer = await upload('/api/v1/products', {
      headers: { ...multipartHeaders, authorization: `Bearer ${key.raw}` },
      prefix: DEMO_PREFIX.body,
      bytes: 52 * MB,
      declareLength: false,
    });
    expectEnvelope(answer, 413, 'payload_too_large');
  });

  test.each([
    ['node:http', () => upload('/api/v1/products', { headers: { 'content-type': 'application/json' }, bytes: 12 * MB, holdAt: MB })],
    ['fetch', () => fetchUpload('/api/v1/products', { headers: { 'content-type': 'application/json', authorization: `Bearer ${key.raw}` }, bytes: 12 * MB, holdAt: MB })],
  ])('a 12 MB JSON body from %s is a 413 read by the client (only multipart bodies may pass 256 KB)', async (_client, send) => {
    knowTheKey();
    expectEnvelope(await send(), 413, 'payload_too_large');
  });

  test('a 12 MB body of a kind no route reads is a 415 read by the client', async () => {
    const answer = await upload('/api/v1/products', { headers: { 'content-type': 'text/plain' }, bytes: 12 * MB, holdAt: MB });
    expectEnvelope(answer, 415, 'unsupported_media_type');
  });
});

describe('a large body is read only for a good key', () => {
  test.each([
    ['no key', {}],
    ['a malformed key', { authorization: 'Bearer nope' }],
    ['an unknown key', { authorization: `Bearer ${generateKeyMaterial().raw}` }],
  ])('%s: a 5 MB demo video is a 401 before the body is read', async (_what, headers) => {
    const answer = await upload('/api/v1/products', { headers: { ...multipartHeaders, ...headers }, prefix: DEMO_PREFIX.body, bytes: 5 * MB, holdAt: 0 });
    expectEnvelope(answer, 401, 'unauthorized');
  });

  test('an anonymous chunked body is a 401 before any of it is read', async () => {
    const answer = await fetchUpload('/api/v1/products', { headers: multipartHeaders, prefix: DEMO_PREFIX.body, bytes: MB, holdAt: 0 });
    expectEnvelope(answer, 401, 'unauthorized');
  });

  test('a store that fails during the early check is a 500 with only the request id', async () => {
    keyStore.failure = new Error('connection reset by peer at 10.0.0.12');
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const answer = await upload('/api/v1/products', {
      headers: { ...multipartHeaders, authorization: `Bearer ${key.raw}` },
      prefix: DEMO_PREFIX.body,
      bytes: 5 * MB,
      holdAt: 0,
    });
    error.mockRestore();
    expectEnvelope(answer, 500, 'internal_error');
    expect(answer.body).toEqual({ error: 'Internal server error', code: 'internal_error', request_id: answer.headers['x-request-id'], doc_url: '/api/v1/docs/errors#internal_error' });
  });
});

describe('Expect', () => {
  function expecting(
    expect: string,
    [method, path]: [string, string],
    headers: Record<string, string>,
    body: Buffer,
  ): Promise<Answer & { continued: boolean }> {
    return new Promise((resolve, reject) => {
      let continued = false;
      const req = httpRequest(`${base}${path}`, { method, headers: { expect, 'content-length': String(body.length), ...headers } }, (res) =>
        collect(res).then((answer) => resolve({ ...answer, continued }), reject),
      );
      req.on('error', reject);
      req.on('continue', () => {
        continued = true;
        req.end(body);
      });
      if (!/^100-continue$/i.test(expect)) req.end(body);
      else req.flushHeaders();
    });
  }

  test('100-continue gets 100 Continue when the request may go on, then the answer', async () => {
    const answer = await expecting('100-continue', ['GET', '/api/v1'], {}, Buffer.from('{}'));
    expect({ status: answer.status, continued: answer.continued }).toEqual({ status: 200, continued: true });
  });

  test('100-continue for a body over the limit gets the 413 instead, and sends no body', async () => {
    const headers = { ...multipartHeaders, 'content-length': String(60 * MB) };
    // The declared length is a lie the server never gets to see: a client waiting for 100 sends nothing.
    const answer = await expecting('100-Continue', ['POST', '/api/v1/products'], headers, Buffer.alloc(0));
    expect(answer.continued).toBe(false);
    expectEnvelope(answer, 413, 'payload_too_large');
  });

  test('any other expectation is a 417 in the envelope', async () => {
    const answer = await expecting('teapot', ['GET', '/api/v1'], {}, Buffer.from('abc'));
    expectEnvelope(answer, 417, 'expectation_failed');
  });
});

describe('the rest of a refused upload is read within bounds', () => {
  const DRAIN_MS = 300;
  let bounded: Server;
  let port: number;
  beforeAll(async () => {
    bounded = createLocalApiServer({ dependencies, drain: { maxBytes: MB, maxMs: DRAIN_MS } });
    await new Promise<void>((resolve) => bounded.listen(0, '127.0.0.1', resolve));
    port = (bounded.address() as AddressInfo).port;
  });
  afterAll(() => {
    // A connection a failed test left open would keep close() waiting.
    bounded.closeAllConnections();
    return new Promise<void>((resolve) => bounded.close(() => resolve()));
  });
  // The time bound runs out only when a test moves the clock on, so each hang-up says which bound it was.
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  /** Declares 50 MB without a key and sends `send` bytes: when the answer came, and all that came once the server hung up. */
  function refusedUpload(send: (socket: import('node:net').Socket) => void) {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let hungUp = false;
    const answered = new Promise<void>((resolve) => socket.once('data', () => resolve()));
    socket.on('data', (chunk) => chunks.push(chunk));
    // Writing into a connection the server gave up on fails: that is the point here.
    socket.on('error', () => undefined);
    const closed = new Promise<string>((resolve) =>
      socket.on('close', () => {
        hungUp = true;
        resolve(Buffer.concat(chunks).toString('utf8'));
      }),
    );
    socket.write(`POST /api/v1/products HTTP/1.1\r\nHost: x\r\nContent-Type: ${DEMO_PREFIX.contentType}\r\nContent-Length: ${50 * MB}\r\n\r\n`);
    send(socket);
    return { answered, closed, hungUp: () => hungUp };
  }

  test('a client that stops sending is hung up on when the time bound runs out, its answer sent first', async () => {
    const upload = refusedUpload((socket) => socket.write(CHUNK));
    await upload.answered;
    expect(upload.hungUp()).toBe(false);
    jest.advanceTimersByTime(DRAIN_MS);
    expect(await upload.closed).toMatch(/^HTTP\/1.1 401 [^]*"code":"unauthorized"/);
  });

  test('a client that sends more than the byte bound is hung up on, its answer sent first', async () => {
    const upload = refusedUpload((socket) => {
      for (let i = 0; i < 8; i++) socket.write(CHUNK);
    });
    expect(await upload.closed).toMatch(/^HTTP\/1.1 401 [^]*"code":"unauthorized"/);
  });
});

describe('protocol errors', () => {
  test.each([
    ['a malformed request line', 400, 'bad_request', 'NOT HTTP AT ALL\r\n\r\n'],
    ['a NUL byte in the path', 400, 'bad_request', 'GET /api/v1/usage\0 HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a Content-Length that is not a number', 400, 'bad_request', 'POST /api/v1 HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'],
    ['both Content-Length and chunked', 400, 'bad_request', 'POST /api/v1 HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nabc'],
    ['a broken chunk inside a body being read', 400, 'bad_request', 'GET /api/v1 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab'],
    ['a 20 KB header', 431, 'headers_too_large', `GET /api/v1 HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20 * 1024)}\r\n\r\n`],
    ['a 20 KB path', 431, 'headers_too_large', `GET /api/v1/${'p'.repeat(20 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`],
  ])('%s is a %i %s in the envelope', async (_what, status, code, text) => {
    expectEnvelope(await raw(text.replace('5\r\nab', '5\r\nabcde\r\nzz\r\n')), status, code);
  });

  test('the server answers normally afterwards', async () => {
    const res = await fetch(`${base}/api/v1`);
    expect(res.status).toBe(200);
  });
});
