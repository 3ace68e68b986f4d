/** The session cookie as a credential, over in-memory stores: who it is, when it is refused, and CSRF. */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { createApiHandler } from '#http/api-handler';
import { newSession, SESSION_ABSOLUTE_S } from '#domain/session';
import { ALL_SCOPES } from '#domain/api-keys';
import { testDependencies } from '#test-support/wiring';
import { MemoryAccountStore } from '#test-doubles/memory/account-store';
import { MemoryApiKeyStore } from '#test-doubles/memory/api-key-store';
import { MemoryRateLimiter } from '#test-doubles/memory/rate-limiter';
import { MemorySessionStore } from '#test-doubles/memory/session-store';

const NOW = new Date('2026-11-22T12:00:00Z');
const context = { awsRequestId: 'aws-1', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

interface Request {
  routeKey: string;
  cookie?: string;
  headers?: Record<string, string>;
}

function event({ routeKey, cookie, headers = {} }: Request): APIGatewayProxyEventV2 {
  const [method, path] = routeKey.split(' ') as [string, string];
  return {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString: '',
    cookies: cookie === undefined ? undefined : [cookie],
    headers: { host: 'studio.example.com', 'x-forwarded-proto': 'https', ...headers },
    requestContext: { requestId: 'req-1', http: { method, path, sourceIp: '203.0.113.9' } } as never,
    isBase64Encoded: false,
  };
}

let accounts: MemoryAccountStore;
let apiKeys: MemoryApiKeyStore;
let sessions: MemorySessionStore;
let now: Date;

const answer = async (request: { principal: unknown }) => ({ statusCode: 200, body: JSON.stringify(request.principal) });

async function call(request: Request) {
  const handler = createApiHandler({ get: answer, create: answer, listKeys: answer } as never, () =>
    testDependencies({ accounts, apiKeys, sessions, rateLimits: new MemoryRateLimiter(), now: () => now }),
  );
  const result = (await handler(event(request), context)) as { statusCode: number; body: string };
  return { status: result.statusCode, body: JSON.parse(result.body) };
}

async function signedIn() {
  const account = await accounts.create('a', 'free');
  const session = newSession(account.id, 7, NOW);
  await sessions.create(session.hash, session.record);
  return { accountId: account.id, session, cookie: `rs_session=${session.token}` };
}

beforeEach(() => {
  accounts = new MemoryAccountStore();
  apiKeys = new MemoryApiKeyStore(accounts);
  sessions = new MemorySessionStore();
  now = NOW;
});

describe('the session cookie', () => {
  test('reads as its account with every scope, on a key route and a studio-only route alike', async () => {
    const { accountId, session, cookie } = await signedIn();
    for (const routeKey of ['GET /api/v1/usage', 'GET /api/v1/keys']) {
      expect(await call({ routeKey, cookie })).toMatchObject({
        status: 200,
        body: { accountId, scopes: [...ALL_SCOPES], credential: { kind: 'session', sessionId: session.record.id } },
      });
    }
  });

  test('an unknown, malformed, revoked or ended session is 401', async () => {
    const { session, cookie } = await signedIn();
    expect(await call({ routeKey: 'GET /api/v1/usage', cookie: 'rs_session=nonsense' })).toMatchObject({ status: 401 });
    expect(await call({ routeKey: 'GET /api/v1/usage', cookie: `rs_session=${newSession(1, 1, NOW).token}` })).toMatchObject({ status: 401 });
    now = new Date(NOW.getTime() + SESSION_ABSOLUTE_S * 1000);
    expect(await call({ routeKey: 'GET /api/v1/usage', cookie })).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
    now = NOW;
    await sessions.revoke(session.hash);
    expect(await call({ routeKey: 'GET /api/v1/usage', cookie })).toMatchObject({ status: 401 });
  });

  test('a use days later slides its end', async () => {
    const { session, cookie } = await signedIn();
    now = new Date(NOW.getTime() + 3 * 86_400_000);
    expect(await call({ routeKey: 'GET /api/v1/usage', cookie })).toMatchObject({ status: 200 });
    expect((await sessions.findByHash(session.hash))?.expires_at).toBe(new Date(now.getTime() + 7 * 86_400_000).toISOString());
  });

  test('a change without the CSRF token, with a wrong one or from a foreign Origin is 403; with the token and its own Origin it passes', async () => {
    const { session, cookie } = await signedIn();
    const csrf = session.record.csrf_token;
    const post = (headers: Record<string, string>) => call({ routeKey: 'POST /api/v1/products', cookie, headers });
    expect(await post({})).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    expect(await post({ 'x-csrf-token': `${csrf.slice(1)}x` })).toMatchObject({ status: 403 });
    expect(await post({ 'x-csrf-token': csrf, origin: 'https://evil.example' })).toMatchObject({ status: 403, body: { error: expect.stringContaining('evil.example') } });
    expect(await post({ 'x-csrf-token': csrf, origin: 'http://studio.example.com' })).toMatchObject({ status: 403 });
    expect(await post({ 'x-csrf-token': csrf, origin: 'https://studio.example.com' })).toMatchObject({ status: 200 });
    expect(await post({ 'x-csrf-token': csrf })).toMatchObject({ status: 200 });
  });

  test('with a bearer key too the key counts, and needs no CSRF token', async () => {
    const { cookie } = await signedIn();
    const other = await accounts.create('b', 'pro');
    const key = await apiKeys.create(other.id, ['write']);
    const res = await call({ routeKey: 'POST /api/v1/products', cookie, headers: { authorization: `Bearer ${key.key}` } });
    expect(res).toMatchObject({ status: 200, body: { accountId: other.id, credential: { kind: 'api_key', keyId: key.id } } });
  });

  test('a bearer key on a studio-only route is 403: a key cannot mint keys', async () => {
    const account = await accounts.create('b', 'pro');
    const key = await apiKeys.create(account.id, [...ALL_SCOPES]);
    expect(await call({ routeKey: 'GET /api/v1/keys', headers: { authorization: `Bearer ${key.key}` } })).toMatchObject({
      status: 403,
      body: { error: expect.stringContaining('an API key cannot manage keys') },
    });
    expect(await call({ routeKey: 'GET /api/v1/keys' })).toMatchObject({ status: 401 });
  });
});
