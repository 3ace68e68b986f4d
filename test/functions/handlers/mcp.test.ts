/**
 * The MCP Lambda: an API Gateway v2 event in, the MCP answer out as the v2 result, the tools reaching
 * the API only at API_BASE_URL with the caller's key (here a fetch double stands for the API).
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { createHandler } from '#handlers/mcp';

const API = 'https://api.example.test/api/v1';
const GOOD_KEY = 'rsk_good';
const USAGE = { plan: { name: 'pro' }, allowance: { used: 2, reserved: 0, remaining: 98, limit: 100 } };

/** The API as far as these calls go: GET /usage for a known key, the API's 401 for any other. */
const seen: Request[] = [];
async function api(request: Request): Promise<Response> {
  seen.push(request);
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'x-request-id': 'api-req-1' } });
  if (request.headers.get('authorization') !== `Bearer ${GOOD_KEY}`) return json(401, { error: 'Invalid API key', code: 'unauthorized' });
  if (request.method === 'GET' && request.url === `${API}/usage`) return json(200, { data: USAGE });
  return json(404, { error: 'Not found', code: 'not_found' });
}

const handler = createHandler({ apiBaseUrl: API, fetch: api });

function event(init: { method?: string; authorization?: string; body?: unknown; base64?: boolean }): APIGatewayProxyEventV2 {
  const text = init.body === undefined ? undefined : JSON.stringify(init.body);
  return {
    version: '2.0',
    routeKey: 'ANY /mcp',
    rawPath: '/mcp',
    rawQueryString: '',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(init.authorization ? { authorization: init.authorization } : {}),
    },
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      domainName: 'api.execute-api.eu-west-1.amazonaws.com',
      domainPrefix: 'api',
      http: { method: init.method ?? 'POST', path: '/mcp', protocol: 'HTTP/1.1', sourceIp: '192.0.2.1', userAgent: 'test' },
      requestId: 'gw-req-1',
      routeKey: 'ANY /mcp',
      stage: '$default',
      time: '28/Nov/2026:07:00:00 +0000',
      timeEpoch: 0,
    },
    body: text !== undefined && init.base64 ? Buffer.from(text).toString('base64') : text,
    isBase64Encoded: Boolean(init.base64),
  };
}

const rpc = (id: number, method: string, params: unknown) => ({ jsonrpc: '2.0', id, method, params });
const INITIALIZE = rpc(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } });

async function invoke(e: APIGatewayProxyEventV2) {
  const result = (await handler(e)) as APIGatewayProxyStructuredResultV2;
  return { status: result.statusCode, headers: result.headers ?? {}, json: JSON.parse(result.body ?? 'null') };
}

beforeEach(() => {
  seen.length = 0;
});

test('initialize answers the server as JSON (API Gateway delivers the answer whole), with a request id', async () => {
  const answer = await invoke(event({ authorization: `Bearer ${GOOD_KEY}`, body: INITIALIZE }));
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.headers['x-request-id']).toBe('gw-req-1');
  expect(answer.json).toMatchObject({ id: 1, result: { serverInfo: { name: 'reaction-studio' }, capabilities: { tools: {} } } });
});

test('a tool call (base64 body, as API Gateway passes some) reaches the API with the caller\'s key and answers its data', async () => {
  const answer = await invoke(event({ authorization: `Bearer ${GOOD_KEY}`, body: rpc(2, 'tools/call', { name: 'get_usage', arguments: {} }), base64: true }));
  expect(answer.status).toBe(200);
  expect(answer.json.result).toMatchObject({ structuredContent: USAGE });
  expect(answer.json.result.isError).toBeUndefined();
  expect(seen.every((request) => request.url.startsWith(`${API}/`) && request.headers.get('authorization') === `Bearer ${GOOD_KEY}`)).toBe(true);
});

test('an API refusal is a tool error with its code and request id', async () => {
  const answer = await invoke(event({ authorization: `Bearer ${GOOD_KEY}`, body: rpc(3, 'tools/call', { name: 'get_job', arguments: { job_id: 7 } }) }));
  // The details ride in _meta: an SDK client checks any structuredContent, an error's too, against the tool's output schema.
  expect(answer.json.result).toMatchObject({ isError: true, _meta: { 'reaction-studio/error': { code: 'not_found', status: 404, request_id: 'api-req-1' } } });
});

test('no key or a key the API refuses is 401 in the API\'s envelope, before any MCP message is read', async () => {
  for (const authorization of [undefined, 'Bearer rsk_revoked']) {
    const answer = await invoke(event({ authorization, body: INITIALIZE }));
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe('Bearer');
    expect(answer.json).toEqual({ error: expect.any(String), code: 'unauthorized', request_id: answer.headers['x-request-id'], doc_url: expect.stringMatching(/\/docs\/errors#unauthorized$/) });
  }
});

test('a method other than POST is 405 with Allow: POST; a body that is not JSON-RPC is a 4xx, not a crash', async () => {
  const get = await invoke(event({ method: 'GET', authorization: `Bearer ${GOOD_KEY}` }));
  expect(get).toMatchObject({ status: 405, headers: { allow: 'POST' }, json: { code: 'method_not_allowed' } });
  const broken = await handler({ ...event({ authorization: `Bearer ${GOOD_KEY}` }), body: '{"jsonrpc":' });
  expect((broken as APIGatewayProxyStructuredResultV2).statusCode).toBe(400);
});
