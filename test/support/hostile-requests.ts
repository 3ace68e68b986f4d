/**
 * Hostile requests: broken bodies and headers a client (or an attacker) may send. Shared by the
 * end-to-end test (test/e2e/hostile-requests.test.ts) and the standalone run (bench/hostile.ts); the
 * multipart builder is also what the body parser's unit tests frame their bodies with.
 *
 * Requests go out over raw sockets: no HTTP client would send most of them.
 */
import { connect } from 'node:net';
import pLimit from 'p-limit';
import { fullPath, type RouteDefinition } from '#functions/routes';

export interface Part {
  /** Left out: a part with no `name` parameter. */
  name?: string;
  filename?: string;
  contentType?: string;
  value: string | Buffer;
  /** Extra raw header lines of the part. */
  headers?: string[];
}

/** A multipart/form-data body, by default well-formed; `close: false` leaves off the closing boundary. */
export function multipartBody(parts: readonly Part[], options: { boundary?: string; close?: boolean } = {}) {
  const boundary = options.boundary ?? 'hostile-boundary';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = ['form-data', part.name === undefined ? '' : `name="${part.name}"`, part.filename === undefined ? '' : `filename="${part.filename}"`]
      .filter(Boolean)
      .join('; ');
    const lines = [`--${boundary}`, `Content-Disposition: ${disposition}`];
    if (part.contentType) lines.push(`Content-Type: ${part.contentType}`);
    lines.push(...(part.headers ?? []));
    chunks.push(Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  if (options.close !== false) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

// ---------------------------------------------------------------------------------------------------
// The request table.

export interface HostileRequest {
  /** What is broken, for reports: `POST /products: truncated multipart`. */
  name: string;
  method: string;
  /** Written as is (latin1), so it may hold what no HTTP client would send. */
  path: string;
  /** Raw header lines, in order, repeats allowed; strings are written as latin1 bytes. */
  headers: [string, string][];
  body?: Buffer;
}

/** POSTs that take no fields and name no record: an empty object is a whole, valid request to them. */
const FIELDLESS_OPERATIONS = new Set(['createSample']);
/** The lists with page and per_page (avatars and reactions are listed whole and ignore a query). */
const PAGED_PATHS = new Set(['/products', '/videos', '/social/posts']);
/** Each upload route's file field, so that file cases hit the field the route really takes. */
const FILE_FIELDS: Record<string, string> = { products: 'demo_video', avatars: 'image', videos: 'reference_video' };

const KB = 1024;
const utf8AsLatin1 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

/**
 * Every route of the table with bodies, headers, paths and queries that must each be refused with a
 * 4xx in the envelope. `key` is a valid key of an account with every scope: most cases carry it, so
 * that they reach the handlers instead of stopping at the 401.
 */
export function hostileRequests(routes: readonly RouteDefinition[], key: string): HostileRequest[] {
  const cases: HostileRequest[] = [];
  for (const route of routes) {
    const path = fullPath(route.path).replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'provider' ? 'provider_a' : '999999'));
    const named = (what: string, request: Omit<HostileRequest, 'name'>) => cases.push({ name: `${route.method} ${route.path}: ${what}`, ...request });
    const auth: [string, string] = ['Authorization', `Bearer ${key}`];

    for (const [what, request] of protocolCases(route.method, path, auth)) named(what, request);
    if (route.auth === 'required') {
      for (const [what, headers] of badAuthorizations(key)) named(what, { method: route.method, path, headers });
    }
    for (const [what, bad] of badPathParameters(route.path)) named(what, { method: route.method, path: bad, headers: [auth] });
    if (route.method === 'GET' && PAGED_PATHS.has(route.path)) {
      for (const query of ['page=0', 'per_page=101', 'page=abc', 'page=1.5', 'per_page=', 'page=99999999999']) {
        named(`query ${query}`, { method: route.method, path: `${path}?${query}`, headers: [auth] });
      }
    }
    // Routes without a body too: one sent to them is refused, not ignored (http/body.ts refuseUnexpectedBody).
    const fileField = route.operation === 'create' || route.operation === 'regenerate' ? FILE_FIELDS[route.group] : undefined;
    for (const [what, body] of brokenBodies(fileField ?? 'upload')) {
      if ((!route.body || FIELDLESS_OPERATIONS.has(route.operation)) && what === 'an empty JSON object') continue;
      named(what, { method: route.method, path, headers: [auth, ...body.headers], body: body.body });
    }
    if (route.operation === 'create' && route.group === 'videos') {
      const job = Buffer.from(JSON.stringify({ product_id: 999999, method: 'prompt', prompt: 'shocked by the price', hook_text: 'Wait' }));
      for (const idempotencyKey of ['', 'k'.repeat(300), utf8AsLatin1('clé-😱'), 'two words']) {
        named(`Idempotency-Key ${JSON.stringify(idempotencyKey.slice(0, 20))}`, {
          method: route.method,
          path,
          headers: [auth, ['Content-Type', 'application/json'], ['Idempotency-Key', idempotencyKey]],
          body: job,
        });
      }
    }
  }
  return cases;
}

/** What breaks HTTP itself, or the request line: the same for every route. */
function protocolCases(method: string, path: string, auth: [string, string]): [string, Omit<HostileRequest, 'name'>][] {
  return [
    ['a NUL byte in the path', { method, path: `${path}\0`, headers: [auth] }],
    ['a 20 KB header', { method, path, headers: [auth, ['X-Padding', 'p'.repeat(20 * KB)]] }],
    ['a 20 KB path', { method, path: `${path}/${'p'.repeat(20 * KB)}`, headers: [auth] }],
    ['a header name with a space', { method, path, headers: [auth, ['Bad Name', 'x']] }],
    ['a control character in a header', { method, path, headers: [auth, ['X-Bad', 'a\u0001b']] }],
    ['a Content-Length that is not a number', { method, path, headers: [auth, ['Content-Length', '12abc']] }],
    ['two different Content-Lengths', { method, path, headers: [auth, ['Content-Length', '1'], ['Content-Length', '2']], body: Buffer.from('ab') }],
    ['Content-Length and chunked together', { method, path, headers: [auth, ['Content-Length', '3'], ['Transfer-Encoding', 'chunked']], body: Buffer.from('0\r\n\r\n') }],
    ['a broken chunk', { method, path, headers: [auth, ['Transfer-Encoding', 'chunked']], body: Buffer.from('5\r\nabcde\r\nzz\r\n') }],
    ['an unknown transfer coding', { method, path, headers: [auth, ['Transfer-Encoding', 'gzip']], body: Buffer.from('x') }],
    ['Expect: teapot', { method, path, headers: [auth, ['Expect', 'teapot']] }],
  ];
}

function badAuthorizations(key: string): [string, [string, string][]][] {
  const unknown = `rsk_${'A'.repeat(43)}`;
  return [
    ['no Authorization', []],
    ['Bearer and nothing', [['Authorization', 'Bearer']]],
    ['a short key', [['Authorization', 'Bearer rsk_short']]],
    ['Basic credentials', [['Authorization', 'Basic dXNlcjpwYXNz']]],
    ['an unknown well-formed key', [['Authorization', `Bearer ${unknown}`]]],
    ['the key with a tail', [['Authorization', `Bearer ${key} extra`]]],
    ['an 8 KB key', [['Authorization', `Bearer rsk_${'k'.repeat(8 * KB)}`]]],
    ['a key of non-ASCII bytes', [['Authorization', `Bearer ${utf8AsLatin1(`rsk_${'é'.repeat(43)}`)}`]]],
    ['two Authorization headers', [['Authorization', `Bearer ${key}`], ['Authorization', `Bearer ${unknown}`]]],
  ];
}

function badPathParameters(routePath: string): [string, string][] {
  const param = /\{(\w+)\}/.exec(routePath)?.[1];
  if (!param) return [];
  const values = param === 'provider' ? ['nope', '%00', 'provider_a%00', 'p'.repeat(300), '%E9', '%'] : ['abc', '0', '-1', '1e3', '1.5', '99999999999999999999', '%00', '1%00', '%20', '%'];
  return values.map((value) => [`${param} ${JSON.stringify(value)}`, fullPath(routePath.replace(`{${param}}`, value))]);
}

interface Body {
  headers: [string, string][];
  body: Buffer;
}

const typed = (contentType: string, body: string | Buffer): Body => ({ headers: [['Content-Type', contentType]], body: Buffer.from(body) });
const asJson = (body: string | Buffer) => typed('application/json', body);
const asForm = (body: string | Buffer) => typed('application/x-www-form-urlencoded', body);
const asMultipart = (parts: readonly Part[], options?: { boundary?: string; close?: boolean }): Body => {
  const { body, contentType } = multipartBody(parts, options);
  return typed(contentType, body);
};

/** Bodies no route takes. `file` is the route's file field (or a name no route takes). */
function brokenBodies(file: string): [string, Body][] {
  const clip = (value: string | Buffer = 'not really a video'): Part => ({ name: file, filename: 'clip.mp4', contentType: 'video/mp4', value });
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  return [
    ['invalid JSON', asJson('{"name": ')],
    ['a JSON array', asJson('[{"name": "x"}]')],
    ['a JSON string', asJson('"name"')],
    ['a JSON number', asJson('42')],
    ['JSON null', asJson('null')],
    ['JSON nested 100,000 deep', asJson(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)],
    ['JSON nested 40 deep in a field', asJson(`{"name": ${'{"a":'.repeat(40)}1${'}'.repeat(40)}}`)],
    ['JSON with only unknown fields', asJson('{"zzz": 1}')],
    ['JSON __proto__', asJson('{"__proto__": {"admin": true}, "constructor": {"prototype": {"admin": true}}}')],
    ['a 200 KB JSON field name', asJson(`{"${'n'.repeat(200 * KB)}": 1}`)],
    ['a 1 MB JSON field name', asJson(`{"${'n'.repeat(1024 * KB)}": 1}`)],
    ['JSON that is not UTF-8', asJson(Buffer.concat([Buffer.from('{"name": "'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]))],
    ['JSON in UTF-16', typed('application/json; charset=utf-16', Buffer.from('{"name":"x"}', 'utf16le'))],
    ['an empty JSON object', asJson('{}')],
    ['text/plain', typed('text/plain', 'name=x')],
    ['application/xml', typed('application/xml', '<name>x</name>')],
    ['a body with no Content-Type', { headers: [], body: Buffer.from('{"name":"x"}') }],
    ['an 8 KB Content-Type', typed(`application/${'x'.repeat(8 * KB)}`, '{}')],
    ['a repeated form field', asForm('name=a&name=b')],
    ['a form byte that is not UTF-8', asForm('name=%FF%FE')],
    ['a form field with no name', asForm('=x')],
    ['a form with 1,000 fields', asForm(Array.from({ length: 1000 }, (_, i) => `f${i}=x`).join('&'))],
    ['a 200 KB form field name', asForm(`${'n'.repeat(200 * KB)}=x`)],
    ['multipart without a boundary', typed('multipart/form-data', 'x')],
    ['multipart with an empty boundary', typed('multipart/form-data; boundary=', 'x')],
    ['multipart with another boundary', { ...asMultipart([{ name: 'name', value: 'x' }]), headers: [['Content-Type', 'multipart/form-data; boundary=other']] }],
    ['an empty multipart body', typed('multipart/form-data; boundary=x', '')],
    ['truncated multipart', asMultipart([{ name: 'name', value: 'Half' }, clip()], { close: false })],
    ['truncated multipart with an unknown file field', asMultipart([{ name: 'image[]', filename: 'a.png', contentType: 'image/png', value: png }], { close: false })],
    ['an unknown file field', asMultipart([{ name: 'name', value: 'x' }, { name: 'poster', filename: 'p.png', contentType: 'image/png', value: png }])],
    ['a repeated field', asMultipart([{ name: 'name', value: 'a' }, { name: 'name', value: 'b' }])],
    ['a repeated file', asMultipart([{ name: 'name', value: 'x' }, clip(), clip()])],
    ['a zero-length file', asMultipart([clip('')])],
    ['a file that lies about its type', asMultipart([{ name: 'name', value: 'x' }, { ...clip(png), filename: 'clip.mp4' }])],
    ['a part header over 16 KB', asMultipart([{ name: 'name', value: 'x', headers: [`X-Padding: ${'p'.repeat(20 * KB)}`] }])],
    ['a 1 MB multipart field name', asMultipart([{ name: 'n'.repeat(1024 * KB), value: 'x' }])],
    ['a part without a name', asMultipart([{ value: 'x' }])],
    ['60 parts without a disposition', asMultipart(Array.from({ length: 60 }, () => ({ name: 'x', value: 'x', headers: ['Content-Disposition: attachment'] })))],
    ['a multipart field that is not UTF-8', asMultipart([{ name: 'name', value: Buffer.from([0x41, 0xff, 0xfe]) }])],
    ['a multipart __proto__ field', asMultipart([{ name: '__proto__', value: '{"admin":true}' }])],
    ['Expect: 100-continue with invalid JSON', { ...asJson('{"name": '), headers: [['Content-Type', 'application/json'], ['Expect', '100-continue']] }],
    ['a Content-Length shorter than the body', { headers: [['Content-Type', 'application/json'], ['Content-Length', '5']], body: Buffer.from('{"name": "x"} GET / HTTP/1.1\r\n\r\n') }],
  ];
}

// ---------------------------------------------------------------------------------------------------
// Sending them, and judging the answers.

export type Outcome = { status: number; headers: Record<string, string>; body: string } | { failure: 'timeout' | 'no answer' };

function serialize(request: HostileRequest): Buffer {
  const framed = request.headers.some(([name]) => /^(content-length|transfer-encoding)$/i.test(name));
  const lines = [
    `${request.method} ${request.path} HTTP/1.1`,
    'Host: 127.0.0.1',
    // One request per connection: the answer is the first thing to come back, whatever the body did.
    'Connection: close',
    ...request.headers.map(([name, value]) => `${name}: ${value}`),
    ...(request.body && !framed ? [`Content-Length: ${request.body.length}`] : []),
  ];
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), request.body ?? Buffer.alloc(0)]);
}

/** Sends one request to 127.0.0.1 and reads the first final answer (1xx are skipped). */
function sendRaw(port: number, request: HostileRequest, timeoutMs = 10_000): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let settled = false;
    const finish = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ failure: 'timeout' }), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const answer = parseAnswer(received, false);
      if (answer) finish(answer);
    });
    // The server may stop reading once it has answered; what counts is whether the answer came.
    socket.on('error', () => undefined);
    socket.on('close', () => finish(parseAnswer(received, true) ?? { failure: 'no answer' }));
    socket.write(serialize(request));
  });
}

/** The first final response in `data`, once complete (or, at the end of the stream, as far as it got). */
function parseAnswer(data: Buffer, ended: boolean): Outcome | undefined {
  let start = 0;
  for (;;) {
    const headEnd = data.indexOf('\r\n\r\n', start);
    if (headEnd < 0) return undefined;
    const [statusLine, ...lines] = data.toString('latin1', start, headEnd).split('\r\n');
    const status = Number(statusLine!.split(' ')[1]);
    if (status >= 100 && status < 200) {
      start = headEnd + 4;
      continue;
    }
    const headers: Record<string, string> = {};
    for (const line of lines) headers[line.slice(0, line.indexOf(':')).trim().toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
    const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
    const bodyStart = headEnd + 4;
    if (length !== undefined && data.length >= bodyStart + length) {
      return { status, headers, body: data.toString('utf8', bodyStart, bodyStart + length) };
    }
    return ended ? { status, headers, body: data.toString('utf8', bodyStart) } : undefined;
  }
}

/** Why an answer is not a 4xx in the contract's envelope with a request id; undefined when it is. */
export function problemWith(outcome: Outcome): string | undefined {
  if ('failure' in outcome) return outcome.failure;
  if (outcome.status < 400 || outcome.status >= 500) return `status ${outcome.status}`;
  if (!/^application\/json/.test(outcome.headers['content-type'] ?? '')) return `content-type ${outcome.headers['content-type']}`;
  if (!outcome.headers['x-request-id']) return 'no x-request-id';
  if (!isEnvelope(outcome.body)) return `not the envelope: ${outcome.body.slice(0, 100) || '(no body)'}`;
  return undefined;
}

function isEnvelope(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; code?: unknown };
    return typeof parsed.error === 'string' && typeof parsed.code === 'string';
  } catch {
    return false;
  }
}

export interface Tally {
  byStatus: Record<string, number>;
  serverErrors: number;
  /** No answer at all, or one with an empty body (a bare status line). */
  bodiless: number;
  /** Answers whose body is there but is not `{error, code}`. */
  notEnvelope: number;
  /** The first few requests whose answer was not a 4xx in the envelope. */
  samples: string[];
}

export function tally(results: readonly { request: HostileRequest; outcome: Outcome }[]): Tally {
  const out: Tally = { byStatus: {}, serverErrors: 0, bodiless: 0, notEnvelope: 0, samples: [] };
  for (const { request, outcome } of results) {
    const label = 'failure' in outcome ? outcome.failure : String(outcome.status);
    out.byStatus[label] = (out.byStatus[label] ?? 0) + 1;
    if (!('failure' in outcome) && outcome.status >= 500) out.serverErrors++;
    if ('failure' in outcome || outcome.body === '') out.bodiless++;
    else if (!isEnvelope(outcome.body)) out.notEnvelope++;
    const problem = problemWith(outcome);
    if (problem && out.samples.length < 20) out.samples.push(`${request.name}: ${problem}`);
  }
  return out;
}

/** Runs requests with at most `concurrency` in flight; the results keep the requests' order. */
export async function sendAll(
  port: number,
  requests: readonly HostileRequest[],
  concurrency: number,
): Promise<{ request: HostileRequest; outcome: Outcome }[]> {
  const limit = pLimit(concurrency);
  return Promise.all(requests.map((request) => limit(async () => ({ request, outcome: await sendRaw(port, request) }))));
}
