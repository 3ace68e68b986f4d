/** Conditional GETs: an ETag on every successful GET, 304 when the client already holds that answer. */
import { conditionalGet, etagOf, noneMatch } from '#http/middleware/conditional-get';
import type { ApiResult } from '#http/api-types';

const BODY = JSON.stringify({ data: { id: 7, status: 'processing', progress: 40 } });

function answer(method: string, response: ApiResult, headers: Record<string, string> = {}): ApiResult {
  const request = { event: { requestContext: { http: { method } }, headers }, context: {}, response, internal: {} } as never as Parameters<NonNullable<ReturnType<typeof conditionalGet>['after']>>[0];
  void conditionalGet().after!(request);
  return request.response as ApiResult;
}

const json = (body = BODY, statusCode = 200): ApiResult => ({ statusCode, headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'r-1' }, body });

describe('conditionalGet', () => {
  test('a successful GET carries a strong ETag of its body, and asks browsers to revalidate before reuse', () => {
    const sent = answer('GET', json());
    expect(sent).toMatchObject({ statusCode: 200, body: BODY, headers: { etag: etagOf(BODY), 'cache-control': 'private, no-cache', 'x-request-id': 'r-1' } });
    expect(etagOf(BODY)).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(etagOf(BODY)).not.toBe(etagOf(BODY.replace('40', '41')));
  });

  test('If-None-Match naming the tag (alone, in a list, weak, or *) gets 304 with no body and no content headers', () => {
    const tag = etagOf(BODY);
    for (const asked of [tag, `"other", ${tag}`, `W/${tag}`, '*']) {
      const sent = answer('GET', json(), { 'if-none-match': asked });
      expect(sent.statusCode).toBe(304);
      expect(sent.body).toBe('');
      expect(sent.headers).toEqual({ etag: tag, 'cache-control': 'private, no-cache', 'x-request-id': 'r-1' });
    }
  });

  test('a changed answer is sent whole with its new tag', () => {
    const sent = answer('GET', json(BODY.replace('40', '60')), { 'if-none-match': etagOf(BODY) });
    expect(sent.statusCode).toBe(200);
    expect(sent.headers!.etag).toBe(etagOf(BODY.replace('40', '60')));
  });

  test('writes, errors and answers it does not own (a cache policy of their own stays) are left as they are', () => {
    for (const [method, response] of [
      ['POST', json()],
      ['GET', json(BODY, 404)],
      ['GET', { statusCode: 302, headers: { location: 'https://x' }, body: '' }],
    ] as const) {
      expect(answer(method, response, { 'if-none-match': '*' })).toEqual(response);
    }
    const own = answer('GET', { statusCode: 200, headers: { 'content-type': 'image/png', 'cache-control': 'private, max-age=3600' }, body: 'png' });
    expect(own.headers!['cache-control']).toBe('private, max-age=3600');
  });

  test('reads If-None-Match as RFC 9110 lists it', () => {
    expect(noneMatch(undefined, '"a"')).toBe(false);
    expect(noneMatch('"b"', '"a"')).toBe(false);
    expect(noneMatch(' "b" ,W/"a"', '"a"')).toBe(true);
  });
});
