/**
 * The body reader against broken bodies: every one is a 4xx AppError, none leaves a temp file, and
 * none takes the process down (an unhandled stream `error` would crash the whole local server).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { readBody, refuseUnexpectedBody, type BodyOptions, type ParsedBody } from '#http/body';
import type { ApiRequest } from '#http/api-types';
import type { RouteDefinition } from '#functions/routes';
import { multipartBody, type Part } from '#test-support/hostile-requests';

const VIDEO = { reference_video: { maxBytes: 1000, label: 'The reference video' } };
// Uploads go to a folder of our own: it shows exactly what the reader left behind.
const uploads = mkdtempSync(join(tmpdir(), 'rs-body-test-'));
const ALL: BodyOptions = { accept: ['json', 'form', 'multipart'], files: VIDEO, tempDir: uploads };

afterAll(() => {
  rmSync(uploads, { recursive: true, force: true });
});
afterEach(() => expect(readdirSync(uploads)).toEqual([]));

function event(body: Buffer | string, contentType: string): APIGatewayProxyEventV2 {
  return {
    headers: { 'content-type': contentType },
    body: Buffer.from(body).toString('base64'),
    isBase64Encoded: true,
  } as unknown as APIGatewayProxyEventV2;
}

const json = (text: string | Buffer) => readBody(event(text, 'application/json'), ALL);
const form = (text: string | Buffer) => readBody(event(text, 'application/x-www-form-urlencoded'), ALL);
const multipart = (parts: Part[], options?: { boundary?: string; close?: boolean }, read: BodyOptions = ALL) => {
  const { body, contentType } = multipartBody(parts, options);
  return readBody(event(body, contentType), read);
};

async function refusal(reading: Promise<ParsedBody>): Promise<{ status: number; code: string; message: string }> {
  const outcome = await reading.then(
    async (body) => {
      await body.cleanup();
      return undefined;
    },
    (error: { status: number; code: string; message: string }) => error,
  );
  if (!outcome) throw new Error('the body was accepted');
  return { status: outcome.status, code: outcome.code, message: outcome.message };
}

const clip = (value = 'clip-bytes'): Part => ({ name: 'reference_video', filename: 'r.mp4', contentType: 'video/mp4', value });

describe('multipart bodies', () => {
  test('a truncated body with an unknown file field is a 400 and the process survives', async () => {
    const { body, contentType } = multipartBody([{ name: 'image[]', filename: 'a.png', contentType: 'image/png', value: '' }], { close: false });
    // The form ends inside the file, with no CRLF and no closing boundary: busboy errors that file's stream.
    const cut = body.subarray(0, body.length - 2);
    expect(await refusal(readBody(event(Buffer.concat([cut, Buffer.from('abcdef')]), contentType), ALL))).toMatchObject({
      status: 400,
      code: 'bad_request',
      message: 'Unexpected file field image[]',
    });
  });

  test('a truncated body with an unknown file field and no file rules at all is a 400', async () => {
    const reading = multipart([{ name: 'image', filename: 'a.png', value: 'abc' }], { close: false }, { accept: ['multipart'], tempDir: uploads });
    expect(await refusal(reading)).toMatchObject({ status: 400 });
  });

  test('a body cut inside an accepted file is a 400 and its partial file is removed', async () => {
    expect(await refusal(multipart([{ name: 'name', value: 'x' }, clip()], { close: false }))).toMatchObject({
      status: 400,
      message: 'Malformed or truncated multipart/form-data body',
    });
  });

  test.each([
    ['no boundary parameter', 'multipart/form-data'],
    ['an empty boundary', 'multipart/form-data; boundary='],
    ['another boundary than the body uses', 'multipart/form-data; boundary=other'],
  ])('%s is a 400', async (_what, contentType) => {
    const { body } = multipartBody([{ name: 'name', value: 'x' }]);
    expect(await refusal(readBody(event(body, contentType), ALL))).toMatchObject({ status: 400, code: 'bad_request' });
  });

  test('an empty body is a 400', async () => {
    expect(await refusal(readBody(event('', 'multipart/form-data; boundary=x'), ALL))).toMatchObject({ status: 400 });
  });

  test.each<[string, Part[]]>([
    ['a repeated field', [{ name: 'name', value: 'a' }, { name: 'name', value: 'b' }]],
    ['a repeated file', [clip(), clip()]],
    ['a field and a file of one name', [{ name: 'reference_video', value: 'a' }, clip()]],
    ['a file and a field of one name', [clip(), { name: 'reference_video', value: 'a' }]],
    ['an unknown file field', [{ name: 'name', value: 'x' }, { name: 'poster', filename: 'p.jpg', value: 'jpg' }]],
    ['a file field named __proto__', [{ name: '__proto__', filename: 'p.jpg', value: 'jpg' }]],
    ['a part without a name', [{ filename: 'p.jpg', value: 'jpg' }]],
    ['a field without a name', [{ value: 'x' }]],
    ['a 1 MB field name', [{ name: 'n'.repeat(1024 * 1024), value: 'x' }]],
    ['a 200-character field name', [{ name: 'n'.repeat(200), value: 'x' }]],
    ['a part header line over 16 KB', [{ name: 'name', value: 'x', headers: [`X-Padding: ${'p'.repeat(20 * 1024)}`] }]],
    ['a field of bytes that are not UTF-8', [{ name: 'name', value: Buffer.from([0x41, 0xff, 0xfe, 0x42]) }]],
    ['a field over 64 KB', [{ name: 'description', value: 'd'.repeat(65 * 1024) }]],
    ['51 fields', Array.from({ length: 51 }, (_, i) => ({ name: `f${i}`, value: 'x' }))],
    ['60 parts without a disposition', Array.from({ length: 60 }, () => ({ name: 'x', value: 'x', headers: ['Content-Disposition: attachment'] }))],
  ])('%s is a 400', async (_what, parts) => {
    const outcome = await refusal(multipart(parts));
    expect(outcome).toMatchObject({ status: 400, code: 'bad_request' });
    expect(outcome.message.length).toBeLessThan(300);
  });

  test('a file over its limit is a 413 naming the file, and nothing is kept', async () => {
    expect(await refusal(multipart([clip('v'.repeat(1001))]))).toEqual({
      status: 413,
      code: 'payload_too_large',
      message: 'The reference video is larger than 0 MB',
    });
  });

  test('a zero-length file reaches the operation with size 0 (the media checks refuse it)', async () => {
    const body = await multipart([clip('')]);
    expect(body.files.reference_video).toMatchObject({ field: 'reference_video', filename: 'r.mp4', size: 0 });
    await body.cleanup();
  });

  test('a field named __proto__ is an own field and leaves prototypes alone', async () => {
    const body = await multipart([{ name: '__proto__', value: '{"polluted":true}' }, { name: 'constructor', value: 'x' }]);
    expect(Object.keys(body.fields)).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await body.cleanup();
  });

  test('a well-formed body gives its fields and files, with UTF-8 names and values', async () => {
    const body = await multipart([{ name: 'name', value: 'Crème 😱' }, { ...clip(), filename: 'réf.mp4' }]);
    expect({ ...body.fields }).toEqual({ name: 'Crème 😱' });
    expect(body.files.reference_video).toMatchObject({ filename: 'réf.mp4', size: 10 });
    await body.cleanup();
  });
});

describe('JSON bodies', () => {
  test.each([
    ['invalid JSON', '{"name": '],
    ['an array', '[1, 2]'],
    ['a string', '"name"'],
    ['a number', '42'],
    ['null', 'null'],
    ['nesting 33 levels deep', `{"a":${'['.repeat(32)}${']'.repeat(32)}}`],
    ['nesting 100,000 levels deep', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    ['a 200-character key', JSON.stringify({ ['k'.repeat(200)]: 1 })],
  ])('%s is a 400', async (_what, text) => {
    expect(await refusal(json(text))).toMatchObject({ status: 400, code: 'bad_request' });
  });

  test('bytes that are not UTF-8 are a 400, not a name full of U+FFFD', async () => {
    const text = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    expect(await refusal(json(text))).toMatchObject({ status: 400, message: 'Request body is not valid UTF-8' });
  });

  test('brackets inside strings do not count as nesting; __proto__ stays an own key', async () => {
    const body = await json(`{"name": "${'['.repeat(100)}", "__proto__": {"polluted": true}}`);
    expect(Object.keys(body.fields)).toEqual(['name', '__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('form bodies', () => {
  test.each([
    ['a repeated field', 'name=a&name=b'],
    ['a percent-encoded byte that is not UTF-8', 'name=%FF%FE'],
    ['raw bytes that are not UTF-8', Buffer.from([0x6e, 0x3d, 0xff])],
    ['a 1 KB field name', `${'n'.repeat(1024)}=x`],
    ['an empty field name', '=x'],
    ['51 fields', Array.from({ length: 51 }, (_, i) => `f${i}=x`).join('&')],
  ])('%s is a 400', async (_what, text) => {
    expect(await refusal(form(text))).toMatchObject({ status: 400, code: 'bad_request' });
  });

  test('decodes like URLSearchParams: + is a space, a stray % stays as it is', async () => {
    const body = await form('name=100%25+off%21&description=50%&__proto__=x');
    expect({ ...body.fields }).toEqual({ name: '100% off!', description: '50%', ['__proto__']: 'x' });
    expect(Object.hasOwn(body.fields, '__proto__')).toBe(true);
  });
});

describe('content types', () => {
  test.each(['text/plain', 'application/xml', '', 'application/json,text/plain'])('%p is a 415', async (contentType) => {
    expect(await refusal(readBody(event('{}', contentType), ALL))).toMatchObject({ status: 415, code: 'unsupported_media_type' });
  });

  test('a kind the operation does not take is a 415 naming the ones it does', async () => {
    const { body, contentType } = multipartBody([{ name: 'name', value: 'x' }]);
    expect(await refusal(readBody(event(body, contentType), { accept: ['json'], tempDir: uploads }))).toMatchObject({
      status: 415,
      message: 'Content-Type multipart/form-data is not accepted here; send application/json',
    });
  });

  test('a JSON body over 256 KB is a 413', async () => {
    expect(await refusal(json(JSON.stringify({ name: 'x'.repeat(257 * 1024) })))).toMatchObject({ status: 413 });
  });
});

describe('routes that take no body', () => {
  const route = { method: 'POST', path: '/updates/tickets' } as RouteDefinition;
  const sent = (body: string | undefined, contentType?: string) => () =>
    refuseUnexpectedBody({
      route,
      event: { headers: contentType ? { 'content-type': contentType } : {}, body: body === undefined ? undefined : Buffer.from(body).toString('base64'), isBase64Encoded: true },
    } as unknown as ApiRequest<unknown>);

  test('no body, an empty one, white space or the {} some clients always send is no body at all', () => {
    for (const [body, type] of [[undefined], [''], ['  \n'], ['{}', 'application/json'], [' { } ', 'application/json; charset=utf-8'], ['{}']] as const) {
      expect(sent(body, type)).not.toThrow();
    }
  });

  test('fields, malformed JSON, another type or a multipart body are a 400 naming the route, not ignored', () => {
    for (const [body, type] of [['{"hook_text":"x"}', 'application/json'], ['{"a":', 'application/json'], ['[]', 'application/json'], ['{}', 'text/plain'], ['x=1', 'application/x-www-form-urlencoded'], ['', 'multipart/form-data; boundary=x'], ['{}'.padEnd(100, ' '), 'application/json']] as const) {
      expect(sent(body, type)).toThrow(expect.objectContaining({ status: 400, code: 'bad_request', message: 'POST /api/v1/updates/tickets takes no request body; send none (or {})' }));
    }
  });

  test('a route that declares a body leaves it to its reader', () => {
    const withBody = { ...route, body: { accept: ['json'] } } as RouteDefinition;
    expect(() => refuseUnexpectedBody({ route: withBody, event: { headers: {}, body: 'not json' } } as unknown as ApiRequest<unknown>)).not.toThrow();
  });
});
