/**
 * The studio's sign-in against the local stack over HTTP, as a browser would use it: the session
 * cookie, its CSRF token, API keys made and revoked from a session, password change and sign-out.
 */
import { apiClient, expectError, startTestStack, type ApiResponse, type TestStack } from '#test-support/local-stack';

let t: TestStack;
beforeAll(async () => {
  t = await startTestStack();
});
afterAll(() => t?.stop());

const PASSWORD = 'correct horse battery';
const api = () => apiClient(t.stack.apiUrl);

/** A browser tab: keeps the session cookie it was given and the CSRF token it read. */
class Browser {
  cookie = '';
  csrf = '';

  adopt(response: ApiResponse): ApiResponse {
    const set = response.headers.getSetCookie().find((c) => c.startsWith('rs_session='));
    if (set) this.cookie = set.split(';')[0]!;
    if (response.body?.data?.csrf_token) this.csrf = response.body.data.csrf_token;
    return response;
  }

  async send(method: string, path: string, options: { json?: unknown; csrf?: boolean; headers?: Record<string, string> } = {}) {
    const headers = { cookie: this.cookie, ...(options.csrf === false || !this.csrf ? {} : { 'x-csrf-token': this.csrf }), ...options.headers };
    return this.adopt(await api().send(method, path, { json: options.json, headers }));
  }
}

async function signUp(email: string): Promise<Browser> {
  const browser = new Browser();
  const res = browser.adopt(await api().post('/auth/signup', { email, password: PASSWORD, name: 'Ada' }));
  expect(res.status).toBe(201);
  return browser;
}

describe('a studio session', () => {
  const tab = new Browser();
  let keyId: number;
  let rawKey: string;

  test('signing up answers the user, a free account and a CSRF token, and sets an HttpOnly, SameSite=Lax cookie (not Secure on loopback http)', async () => {
    const res = tab.adopt(await api().post('/auth/signup', { email: ' Ada@Example.com', password: PASSWORD, name: 'Ada' }));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ user: { email: 'ada@example.com', name: 'Ada' }, account: { plan: 'free' }, csrf_token: expect.any(String) });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('rs_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/);
  });

  test('GET /auth/session and GET /account answer who is signed in', async () => {
    const session = await tab.send('GET', '/auth/session');
    expect(session.status).toBe(200);
    expect(session.body.data).toMatchObject({ user: { email: 'ada@example.com' }, csrf_token: tab.csrf, expires_at: expect.any(String) });
    const account = await tab.send('GET', '/account');
    expect(account.body.data).toEqual({ ...session.body.data.account });
  });

  test('a key made in the session is shown once, works as a bearer key, and the list never shows it again', async () => {
    const made = await tab.send('POST', '/keys', { json: { name: 'CI' } });
    expect(made.status).toBe(201);
    ({ id: keyId, key: rawKey } = made.body.data);
    expect(made.body.data).toMatchObject({ name: 'CI', scopes: ['read', 'write', 'publish'] });
    expect((await apiClient(t.stack.apiUrl, rawKey).get('/usage')).status).toBe(200);
    const list = await tab.send('GET', '/keys');
    expect(list.body.data).toEqual([expect.objectContaining({ id: keyId, name: 'CI', revoked_at: null })]);
    expect(JSON.stringify(list.body)).not.toContain(rawKey);
  });

  test('a change made with the cookie needs the CSRF token and no foreign Origin', async () => {
    expectError(await tab.send('POST', '/products', { json: { name: 'Glow serum' }, csrf: false }), 403, 'forbidden');
    expectError(await tab.send('POST', '/products', { json: { name: 'Glow serum' }, headers: { origin: 'https://evil.example' } }), 403, 'forbidden');
    const own = await tab.send('POST', '/products', { json: { name: 'Glow serum' }, headers: { origin: new URL(t.stack.apiUrl).origin } });
    expect(own.status).toBe(201);
    expect((await apiClient(t.stack.apiUrl, rawKey).get(`/products/${own.body.data.id}`)).status).toBe(200);
  });

  test('a bearer key cannot manage keys (403); revoking the key refuses it on its very next request', async () => {
    expectError(await apiClient(t.stack.apiUrl, rawKey).get('/keys'), 403, 'forbidden');
    const revoked = await tab.send('DELETE', `/keys/${keyId}`);
    expect(revoked.body.data).toEqual({ id: keyId, revoked: true });
    expectError(await apiClient(t.stack.apiUrl, rawKey).get('/usage'), 401, 'unauthorized');
  });

  test('changing the password signs out the other sessions and keeps this one', async () => {
    const other = new Browser();
    other.adopt(await api().post('/auth/login', { email: 'ada@example.com', password: PASSWORD }));
    expect((await other.send('GET', '/auth/session')).status).toBe(200);
    const changed = await tab.send('POST', '/auth/password', { json: { current_password: PASSWORD, new_password: 'a brand new passphrase' } });
    expect(changed.body.data).toEqual({ password_changed: true, other_sessions_revoked: 1 });
    expectError(await other.send('GET', '/auth/session'), 401, 'unauthorized');
    expect((await tab.send('GET', '/auth/session')).status).toBe(200);
  });

  test('signing out revokes the session and clears the cookie; the old cookie is 401 from then on', async () => {
    const kept = tab.cookie;
    const out = await tab.send('POST', '/auth/logout');
    expect(out.body.data).toEqual({ signed_out: true });
    expect(out.headers.getSetCookie().find((c) => c.startsWith('rs_session='))).toMatch(/Max-Age=0/);
    expectError(await api().send('GET', '/auth/session', { headers: { cookie: kept } }), 401, 'unauthorized');
    expectError(await api().send('GET', '/usage', { headers: { cookie: kept } }), 401, 'unauthorized');
  });
});

describe('bad input on the sign-in routes', () => {
  test('a wrong password and an unknown email get the same 401 text', async () => {
    await signUp('grace@example.com');
    const wrong = await api().post('/auth/login', { email: 'grace@example.com', password: 'not her password' });
    const unknown = await api().post('/auth/login', { email: 'nobody@example.com', password: PASSWORD });
    expectError(wrong, 401, 'unauthorized');
    expectError(unknown, 401, 'unauthorized');
    expect(wrong.body.error).toBe(unknown.body.error);
  });

  test('a taken email is 409; a short or common password 400, and neither signs anyone in', async () => {
    const taken = await api().post('/auth/signup', { email: 'GRACE@example.com', password: 'another passphrase' });
    expectError(taken, 409, 'conflict');
    expect(taken.headers.getSetCookie()).toEqual([]);
    expectError(await api().post('/auth/signup', { email: 'short@example.com', password: 'short' }), 400, 'bad_request');
    expectError(await api().post('/auth/signup', { email: 'common@example.com', password: 'password123' }), 400, 'bad_request');
    expectError(await api().post('/auth/login', { email: 'common@example.com', password: 'password123' }), 401, 'unauthorized');
  });

  test('malformed, unknown-field and huge bodies are 400, 400 and 413', async () => {
    const malformed = await api().send('POST', '/auth/login', { body: '{"email":', headers: { 'content-type': 'application/json' } });
    expectError(malformed, 400, 'bad_request');
    expectError(await api().post('/auth/signup', { email: 'x@example.com', password: PASSWORD, plan: 'pro' }), 400, 'bad_request');
    expectError(await api().post('/auth/signup', { email: 'x@example.com', password: 'p'.repeat(100_000) }), 413, 'payload_too_large');
  });

  test('after 10 sign-in attempts for one email the next is 429 with Retry-After, even with the right password', async () => {
    await signUp('throttled@example.com');
    for (let i = 0; i < 10; i++) expectError(await api().post('/auth/login', { email: 'throttled@example.com', password: `wrong guess ${i}` }), 401, 'unauthorized');
    const refused = await api().post('/auth/login', { email: 'throttled@example.com', password: PASSWORD });
    expectError(refused, 429, 'rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
