/**
 * Password reset on the local stack over HTTP, as a person goes through it: ask for a link, read it
 * in the local outbox, set a new password with it (signed in, every old session signed out), and the
 * refusals around it.
 */
import { request as httpRequest } from 'node:http';
import { apiClient, expectError, startTestStack, type ApiResponse, type TestStack } from '#test-support/local-stack';

let t: TestStack;
beforeAll(async () => {
  t = await startTestStack();
});
afterAll(() => t?.stop());

const PASSWORD = 'correct horse battery';
const api = () => apiClient(t.stack.apiUrl);

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
}

async function outbox(): Promise<OutboxMail[]> {
  const response = await fetch(`${t.stack.baseUrl}/local/outbox`);
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return ((await response.json()) as { data: OutboxMail[] }).data;
}

/** The link of the newest mail to `to`, and its token. */
async function linkMailedTo(to: string): Promise<{ link: URL; token: string }> {
  const mail = (await outbox()).find((m) => m.to === to)!;
  const link = new URL(mail.text.split('\n').find((line) => line.startsWith(`${t.stack.baseUrl}/reset-password?token=`))!);
  return { link, token: link.searchParams.get('token')! };
}

const cookieOf = (response: ApiResponse) => response.headers.getSetCookie().find((c) => c.startsWith('rs_session='))?.split(';')[0];
const sessionWith = (cookie: string | undefined) => api().send('GET', '/auth/session', { headers: { cookie: cookie ?? '' } });

describe('resetting a forgotten password', () => {
  let signUpCookie: string | undefined;
  let otherCookie: string | undefined;
  let token: string;
  let newPassword: string;

  test('a known and an unknown email get the same 202; only the known one gets a mail, with a link to the studio reset page', async () => {
    const signedUp = await api().post('/auth/signup', { email: 'ada@example.com', password: PASSWORD, name: 'Ada' });
    expect(signedUp.status).toBe(201);
    signUpCookie = cookieOf(signedUp);
    otherCookie = cookieOf(await api().post('/auth/login', { email: 'ada@example.com', password: PASSWORD }));

    const known = await api().post('/auth/password-reset', { email: 'ADA@example.com' });
    const unknown = await api().post('/auth/password-reset', { email: 'nobody@example.com' });
    expect(known.status).toBe(202);
    expect(known.body).toEqual({ data: { reset_requested: true, expires_in_s: 1800 } });
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: known.status, body: known.body });
    expect(known.headers.getSetCookie()).toEqual([]);

    const mails = await outbox();
    expect(mails.map((m) => m.to)).toEqual(['ada@example.com']);
    expect(mails[0]!.subject).toMatch(/reset/i);
    ({ token } = await linkMailedTo('ada@example.com'));
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test("the link opens the studio's reset page", async () => {
    const { link } = await linkMailedTo('ada@example.com');
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  });

  test('hostile confirms are 4xx in the envelope and leave the link working: no token, a garbage one, a huge body, unknown fields, not JSON', async () => {
    const missing = await api().post('/auth/password-reset/confirm', { password: 'a brand new passphrase' });
    expectError(missing, 400, 'bad_request');
    expect(missing.body.param).toBe('token');
    for (const garbage of ['', 'garbage', 'x'.repeat(43), '../../etc/passwd', 'x'.repeat(300)]) {
      const refused = await api().post('/auth/password-reset/confirm', { token: garbage, password: 'a brand new passphrase' });
      expectError(refused, 400, 'bad_request');
      expect(refused.body.param).toBe('token');
    }
    expectError(await api().post('/auth/password-reset/confirm', { token, password: 'p'.repeat(100_000) }), 413, 'payload_too_large');
    expectError(await api().post('/auth/password-reset/confirm', { token, password: 'a brand new passphrase', user_id: 1 }), 400, 'bad_request');
    expectError(await api().send('POST', '/auth/password-reset/confirm', { body: '{"token":', headers: { 'content-type': 'application/json' } }), 400, 'bad_request');
    expectError(await api().send('POST', '/auth/password-reset', { body: 'email', headers: { 'content-type': 'text/plain' } }), 415, 'unsupported_media_type');
    const weak = await api().post('/auth/password-reset/confirm', { token, password: 'password123' });
    expectError(weak, 400, 'bad_request');
    expect(weak.body.param).toBe('password');
    // None of it signed anyone out or changed the password.
    expect((await sessionWith(otherCookie)).status).toBe(200);
  });

  test('two concurrent confirms with the one token: exactly one sets its password and signs in, the other is 400 on the token', async () => {
    const candidates = ['first racer passphrase', 'second racer passphrase'];
    const answers = await Promise.all(candidates.map((password) => api().post('/auth/password-reset/confirm', { token, password })));
    const won = answers.findIndex((a) => a.status === 200);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    const lost = answers[1 - won]!;
    expectError(lost, 400, 'bad_request');
    expect(lost.body.param).toBe('token');
    expect(answers[won]!.body.data).toMatchObject({ user: { email: 'ada@example.com' }, csrf_token: expect.any(String), other_sessions_revoked: 2 });
    newPassword = candidates[won]!;
    const session = await sessionWith(cookieOf(answers[won]!));
    expect(session.status).toBe(200);
    expect(session.body.data.user.email).toBe('ada@example.com');
  });

  test('the old sessions are signed out, the old password is refused and the new one signs in', async () => {
    expectError(await sessionWith(signUpCookie), 401, 'unauthorized');
    expectError(await sessionWith(otherCookie), 401, 'unauthorized');
    expectError(await api().post('/auth/login', { email: 'ada@example.com', password: PASSWORD }), 401, 'unauthorized');
    const loser = ['first racer passphrase', 'second racer passphrase'].find((p) => p !== newPassword)!;
    expectError(await api().post('/auth/login', { email: 'ada@example.com', password: loser }), 401, 'unauthorized');
    expect((await api().post('/auth/login', { email: 'ada@example.com', password: newPassword })).status).toBe(200);
  });

  test('the spent link is 400 on the token from then on', async () => {
    const again = await api().post('/auth/password-reset/confirm', { token, password: 'yet another passphrase' });
    expectError(again, 400, 'bad_request');
    expect(again.body.param).toBe('token');
  });
});

describe('the local outbox', () => {
  /** A GET of the outbox with a Host of our choosing (fetch sets its own). */
  function outboxWithHost(host: string): Promise<number> {
    const { port } = new URL(t.stack.baseUrl);
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/local/outbox', headers: { host } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end();
    });
  }

  test('answers a loopback name only: a page that rebinds its own name to 127.0.0.1 is refused', async () => {
    expect(await outboxWithHost(`localhost:${new URL(t.stack.baseUrl).port}`)).toBe(200);
    expect(await outboxWithHost('evil.example')).toBe(403);
  });

  test('takes no other method', async () => {
    const response = await fetch(`${t.stack.baseUrl}/local/outbox`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(await response.json()).toMatchObject({ code: 'method_not_allowed' });
  });
});
