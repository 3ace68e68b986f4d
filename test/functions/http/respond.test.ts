import { AppError, ERROR_CODES, type ErrorCode } from '#domain/errors';
import { ERROR_DOCS_PATH, errorBody, errorResult } from '#http/respond';
import { matchRoute } from '#functions/routes';

describe('the error envelope', () => {
  test('carries the message, the code, the request id and the code’s entry in the error reference', () => {
    const result = errorResult(new AppError('not_found', 'Product not found'), 'req-7');
    expect(result.statusCode).toBe(404);
    expect(JSON.parse(result.body as string)).toEqual({ error: 'Product not found', code: 'not_found', request_id: 'req-7', doc_url: '/api/v1/docs/errors#not_found' });
  });

  test('names the field at fault when the error has one, and leaves `param` out otherwise', () => {
    expect(errorBody({ code: 'bad_request', message: 'Invalid request: hook_text: too long', param: 'hook_text' }, 'r')).toMatchObject({ param: 'hook_text' });
    expect(errorBody({ code: 'bad_request', message: 'Malformed JSON' }, 'r')).not.toHaveProperty('param');
  });

  test('a 500 says only "Internal server error", whatever the cause said, and still carries the id and the link', () => {
    const body = JSON.parse(errorResult(new AppError('internal_error', 'connection reset by 10.0.0.12'), 'req-9').body as string);
    expect(body).toEqual({ error: 'Internal server error', code: 'internal_error', request_id: 'req-9', doc_url: '/api/v1/docs/errors#internal_error' });
  });

  test('keeps the error’s own headers (Allow, Retry-After)', () => {
    const result = errorResult(new AppError('method_not_allowed', 'no', { headers: { allow: 'GET, POST' } }), 'r');
    expect(result.headers).toMatchObject({ allow: 'GET, POST', 'content-type': 'application/json; charset=utf-8' });
  });

  test('links to a route the API serves, for every code', () => {
    expect(matchRoute('GET', ERROR_DOCS_PATH)).toMatchObject({ kind: 'matched', route: { group: 'meta', operation: 'docsErrors', auth: 'none' } });
    for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) expect(errorBody({ code, message: 'x' }, 'r').doc_url).toBe(`${ERROR_DOCS_PATH}#${code}`);
  });
});
