/**
 * A body over its route's limit is a 413 in every runtime: the local server refuses it before reading;
 * on AWS it arrives whole in the event, and the body reader refuses it the same way.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { rawRouteBody, readRouteBody } from '#http/body';
import type { ApiRequest } from '#http/api-types';
import { ROUTES, routeByKey, type RouteDefinition } from '#functions/routes';
import { testDependencies } from '#test-support/wiring';
const { max } = Math;

function request(route: RouteDefinition, body: string): ApiRequest {
  return {
    event: { headers: { 'content-type': 'application/json' }, body, isBase64Encoded: false } as unknown as APIGatewayProxyEventV2,
    route,
    requestId: 'test',
    pathParameters: {},
    query: {},
    responseHeaders: {},
    pending: [],
    deps: testDependencies({ inlineUploadMaxBytes: undefined }),
  };
}

/** A JSON object of about `bytes` bytes. */
const jsonOf = (bytes: number) => JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(max(0, bytes - 40)) });

test('every route with a body and a limit under the JSON cap has a smaller limit than the JSON reader (sign-in routes)', () => {
  const small = ROUTES.filter((r) => r.body && r.maxBodyBytes < 256 * 1024);
  expect(small.map((r) => `${r.method} ${r.path}`)).toEqual(expect.arrayContaining(['POST /auth/login', 'POST /auth/signup']));
});

test('a sign-in body past the route limit is 413 before it is parsed, wherever it arrives whole', async () => {
  const login = routeByKey('POST /api/v1/auth/login')!;
  await expect(readRouteBody(request(login, jsonOf(login.maxBodyBytes + 100)))).rejects.toMatchObject({ code: 'payload_too_large', status: 413 });
  // Malformed and over the limit: still the size that is refused, not the syntax.
  await expect(readRouteBody(request(login, '{'.repeat(login.maxBodyBytes + 1)))).rejects.toMatchObject({ code: 'payload_too_large' });
});

test('a body within the limit is read as before', async () => {
  const login = routeByKey('POST /api/v1/auth/login')!;
  const body = await readRouteBody(request(login, JSON.stringify({ email: 'a@example.com', password: 'correct horse battery' })));
  expect(body.fields).toEqual({ email: 'a@example.com', password: 'correct horse battery' });
});

test("a signed body (Stripe's webhook) is its bytes exactly as sent, base64 or text, and held to the route's limit too", () => {
  const webhook = routeByKey('POST /api/v1/billing/stripe/webhook')!;
  const sent = '{\n  "id": "evt_1",\n  "type": "checkout.session.completed"\n}';
  expect(rawRouteBody(request(webhook, sent)).toString('utf8')).toBe(sent);
  const base64 = { ...request(webhook, Buffer.from(sent).toString('base64')) };
  base64.event = { ...base64.event, isBase64Encoded: true };
  expect(rawRouteBody(base64).toString('utf8')).toBe(sent);
  expect(() => rawRouteBody(request(webhook, 'x'.repeat(webhook.maxBodyBytes + 1)))).toThrow(expect.objectContaining({ code: 'payload_too_large' }));
});
