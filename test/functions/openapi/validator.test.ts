/** The e2e client's check: an answer the document does not promise is reported, field by field. */
import { openApiMismatches } from '#test-support/openapi-validator';

const headers = (extra: Record<string, string> = {}) =>
  new Headers({
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': 'r1',
    'reaction-studio-version': '2026-11-30',
    'ratelimit-limit': '120',
    'ratelimit-remaining': '119',
    'ratelimit-reset': '60',
    ...extra,
  });

/** The envelope every error answer carries. */
const envelopeOf = (code: string, error: string) => ({ error, code, request_id: 'req-1', doc_url: `/api/v1/docs/errors#${code}` });

const usage = {
  plan: { name: 'pro', monthly_allowance: 150, library_cap: 50, avatar_cap: 100, ai_helpers_per_day: 500, ai_helpers_per_minute: 20, pending_plan: null, plan_changes_at: null },
  period: { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z' },
  allowance: { limit: 150, used: 1, reserved: 0, remaining: 149 },
  library: { used: 0, cap: 50, remaining: 50 },
  avatars: { used: 0, cap: 100, remaining: 100 },
};

describe('openApiMismatches', () => {
  test('a conforming answer has none', () => {
    expect(openApiMismatches({ method: 'GET', pathname: '/api/v1/usage', status: 200, headers: headers({ etag: '"t"' }), body: { data: usage } })).toEqual([]);
  });

  test('a GET without its ETag, or a 304 with a body or without one, is reported', () => {
    expect(openApiMismatches({ method: 'GET', pathname: '/api/v1/usage', status: 200, headers: headers(), body: { data: usage } })).toEqual([
      'GET /api/v1/usage → 200: required header ETag is missing',
    ]);
    const notModified = (extra: Record<string, string>, body?: unknown) => openApiMismatches({ method: 'GET', pathname: '/api/v1/usage', status: 304, headers: headers(extra), body });
    expect(notModified({ etag: '"t"' })).toEqual([]);
    expect(notModified({})).toHaveLength(1);
    expect(notModified({ etag: '"t"' }, { data: usage })).toHaveLength(1);
  });

  test('a field the schema does not know, or a missing one, is reported', () => {
    const extra = openApiMismatches({ method: 'GET', pathname: '/api/v1/usage', status: 200, headers: headers(), body: { data: { ...usage, surprise: 1 } } });
    expect(extra.join()).toMatch(/additional properties/);
    const { plan: _, ...missing } = usage;
    expect(openApiMismatches({ method: 'GET', pathname: '/api/v1/usage', status: 200, headers: headers(), body: { data: missing } }).join()).toMatch(/plan/);
  });

  test('an undocumented status, a wrong content type and a missing required header are reported', () => {
    expect(openApiMismatches({ method: 'GET', pathname: '/api/v1/usage', status: 201, headers: headers(), body: { data: usage } }).join()).toMatch(/not 201/);
    expect(
      openApiMismatches({ method: 'GET', pathname: '/api/v1/usage', status: 200, headers: headers({ 'content-type': 'text/plain' }), body: 'x' }).join(),
    ).toMatch(/content type/);
    const bare = headers();
    bare.delete('ratelimit-remaining');
    expect(openApiMismatches({ method: 'GET', pathname: '/api/v1/usage', status: 200, headers: bare, body: { data: usage } }).join()).toMatch(/RateLimit-Remaining/);
  });

  test('an error code the operation does not list for that status is reported', () => {
    const answer = (code: string, status: number) =>
      openApiMismatches({ method: 'GET', pathname: '/api/v1/usage', status, headers: headers(), body: envelopeOf(code, 'no') });
    expect(answer('rate_limited', 429).join()).toMatch(/Retry-After/);
    expect(answer('forbidden', 403)).toEqual([]);
    expect(answer('conflict', 409).join()).toMatch(/not 409/);
    expect(answer('unauthorized', 403).join()).toMatch(/enum|belongs to status 401/);
  });

  test('an error without its request id or reference link is not the envelope', () => {
    const { request_id: _id, ...withoutId } = envelopeOf('forbidden', 'no');
    const { doc_url: _link, ...withoutLink } = envelopeOf('forbidden', 'no');
    for (const body of [withoutId, withoutLink]) {
      expect(openApiMismatches({ method: 'GET', pathname: '/api/v1/usage', status: 403, headers: headers(), body }).join()).toMatch(/request_id|doc_url/);
    }
  });

  test('unknown paths and other methods must be 404 and 405 in the envelope', () => {
    const envelope = envelopeOf('not_found', 'No route');
    expect(openApiMismatches({ method: 'GET', pathname: '/api/v1/nothing', status: 404, headers: headers(), body: envelope })).toEqual([]);
    expect(openApiMismatches({ method: 'GET', pathname: '/api/v1/nothing', status: 200, headers: headers(), body: {} }).join()).toMatch(/404 was due/);
    expect(
      openApiMismatches({ method: 'DELETE', pathname: '/api/v1/usage', status: 405, headers: headers(), body: envelopeOf('method_not_allowed', 'no') }),
    ).toEqual([]);
  });
});
