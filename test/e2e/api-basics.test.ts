import { request as httpRequest } from 'node:http';
import { API_REVISION } from '#functions/routes';
import { apiClient, expectError, startTestStack, type TestStack } from '#test-support/local-stack';

let t: TestStack;
beforeAll(async () => {
  t = await startTestStack();
});
afterAll(() => t?.stop());

describe('the API root and unknown routes', () => {
  test('GET / answers the API name, version and revision without a key', async () => {
    const res = await apiClient(t.stack.apiUrl).get('/');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Reaction Studio API', version: 'v1', revision: API_REVISION });
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.headers.get('reaction-studio-version')).toBe(API_REVISION);
  });


  test('an unknown path under the API prefix is 404 not_found in the envelope; outside it the server answers with the studio', async () => {
    const unknown = await apiClient(t.stack.apiUrl).get('/no-such-thing');
    expectError(unknown, 404, 'not_found');
    expect(unknown.headers.get('reaction-studio-version')).toBe(API_REVISION);
    expectError(await apiClient(t.stack.baseUrl).get('/api/v2/products'), 404, 'not_found');
    const root = await fetch(`${t.stack.baseUrl}/`);
    expect(root.status).toBe(200);
    expect(root.headers.get('content-type')).toMatch(/^text\/html/);
    await root.arrayBuffer();
  });

  test('a known path with another method is 405 with an Allow header', async () => {
    const res = await apiClient(t.stack.apiUrl).send('DELETE', '/products');
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET, POST');
  });

  test('a 10 MB header is refused with a 4xx in the envelope, which carries the revision like every answer', async () => {
    const { status, body, headers } = await rawRequest(t.stack.baseUrl, '/api/v1/usage', { 'x-huge': 'a'.repeat(10 * 1024 * 1024) });
    expect(status).toBe(431);
    expect(headers['reaction-studio-version']).toBe(API_REVISION);
    expect(JSON.parse(body)).toEqual({ error: 'Request headers are too large', code: 'headers_too_large', request_id: expect.any(String), doc_url: '/api/v1/docs/errors#headers_too_large' });
  });

  test('every response carries a request id, errors included', async () => {
    const ids = new Set<string>();
    for (const path of ['/', '/nope', '/usage']) {
      const res = await apiClient(t.stack.apiUrl).get(path);
      ids.add(res.headers.get('x-request-id')!);
    }
    expect(ids.size).toBe(3);
  });
});

function rawRequest(baseUrl: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: string; headers: NodeJS.Dict<string | string[]> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString(), headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}
