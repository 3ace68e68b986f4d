/** Sign-up, sign-in, sign-out, password change and API keys over in-memory stores. */
import { signUp } from '#use-cases/sign-up';
import { logIn, WRONG_CREDENTIALS } from '#use-cases/log-in';
import { logOut } from '#use-cases/log-out';
import { changePassword } from '#use-cases/change-password';
import { createKey } from '#use-cases/create-key';
import { revokeKey } from '#use-cases/revoke-key';
import { hashKey } from '#domain/api-keys';
import { testDependencies } from '#test-support/wiring';
import { MemoryAccountStore } from '#test-doubles/memory/account-store';
import { MemoryApiKeyStore } from '#test-doubles/memory/api-key-store';
import { MemoryRateLimiter } from '#test-doubles/memory/rate-limiter';
import { MemorySessionStore } from '#test-doubles/memory/session-store';
import { MemoryUserStore } from '#test-doubles/memory/user-store';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const PASSWORD = 'correct horse battery';

function world() {
  const accounts = new MemoryAccountStore();
  const users = new MemoryUserStore(accounts);
  const sessions = new MemorySessionStore();
  const apiKeys = new MemoryApiKeyStore(accounts);
  const deps = testDependencies({ accounts, users, sessions, apiKeys, rateLimits: new MemoryRateLimiter(), now: () => NOW });
  return { deps, accounts, users, sessions, apiKeys };
}

describe('signing up', () => {
  test('makes a free account, its user under the normalised email, and a live session whose token is stored only as a hash', async () => {
    const { deps, accounts, sessions, users } = world();
    const result = await signUp(deps, '203.0.113.1', { email: ' Ada@Example.com ', password: PASSWORD, name: 'Ada' });
    expect(result.user).toMatchObject({ email: 'ada@example.com', name: 'Ada' });
    expect(await accounts.get(result.account.id)).toMatchObject({ plan: 'free', name: 'Ada' });
    expect(await sessions.findByHash(result.session.hash)).toEqual(result.session.record);
    expect((await users.findByEmail('ada@example.com'))?.password_hash).toMatch(/^scrypt\$/);
  });

  test('a taken email is 409 and makes no second account', async () => {
    const { deps, accounts } = world();
    const first = await signUp(deps, '203.0.113.1', { email: 'ada@example.com', password: PASSWORD });
    await expect(signUp(deps, '203.0.113.1', { email: 'ADA@example.com', password: 'another long one' })).rejects.toMatchObject({ code: 'conflict' });
    expect(await accounts.get(first.account.id + 1)).toBeUndefined();
  });

  test.each([
    ['a short password', 'ada@example.com', 'short', /at least 10 characters/],
    ['a common password', 'ada@example.com', 'password123', /most common/],
    ['a malformed email', 'ada.example.com', PASSWORD, /email/],
  ])('%s is 400 and writes nothing', async (_label, email, password, message) => {
    const { deps, users } = world();
    await expect(signUp(deps, '203.0.113.1', { email, password })).rejects.toMatchObject({ code: 'bad_request', message: expect.stringMatching(message) });
    expect(await users.findByEmail(email)).toBeUndefined();
  });

  test('more than 30 sign-ups from one address in a minute are 429 with a wait', async () => {
    const { deps } = world();
    const tries = Array.from({ length: 31 }, (_, i) => signUp(deps, '203.0.113.2', { email: `u${i}@example.com`, password: 'short' }).catch((e: unknown) => e));
    const outcomes = (await Promise.all(tries)) as { code: string; headers: Record<string, string> }[];
    expect(outcomes.filter((e) => e.code === 'bad_request')).toHaveLength(30);
    const refused = outcomes.find((e) => e.code === 'rate_limited')!;
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('signing in', () => {
  test('the right password starts a new session; a wrong one and an unknown email answer the same 401', async () => {
    const { deps, sessions } = world();
    await signUp(deps, '203.0.113.1', { email: 'ada@example.com', password: PASSWORD });
    const result = await logIn(deps, '203.0.113.1', { email: 'ADA@example.com', password: PASSWORD });
    expect(await sessions.findByHash(result.session.hash)).toEqual(result.session.record);
    const wrong = logIn(deps, '203.0.113.1', { email: 'ada@example.com', password: 'not the password' });
    const unknown = logIn(deps, '203.0.113.1', { email: 'nobody@example.com', password: PASSWORD });
    await expect(wrong).rejects.toMatchObject({ code: 'unauthorized', message: WRONG_CREDENTIALS });
    await expect(unknown).rejects.toMatchObject({ code: 'unauthorized', message: WRONG_CREDENTIALS });
  });

  test('after 10 attempts for one email in 15 minutes the next is 429, even with the right password', async () => {
    const { deps } = world();
    await signUp(deps, '203.0.113.1', { email: 'ada@example.com', password: PASSWORD });
    for (let i = 0; i < 10; i++) {
      await expect(logIn(deps, `198.51.100.${i}`, { email: 'ada@example.com', password: 'wrong password' })).rejects.toMatchObject({ code: 'unauthorized' });
    }
    await expect(logIn(deps, '198.51.100.99', { email: 'ada@example.com', password: PASSWORD })).rejects.toMatchObject({
      code: 'rate_limited',
      headers: { 'retry-after': expect.stringMatching(/^[1-9]\d*$/) },
    });
  });
});

describe('the session', () => {
  test('signing out revokes it', async () => {
    const { deps, sessions } = world();
    const { session } = await signUp(deps, '203.0.113.1', { email: 'ada@example.com', password: PASSWORD });
    await logOut(deps, session.hash);
    expect(await sessions.findByHash(session.hash)).toBeUndefined();
  });

  test('a password change needs the current password, keeps this session, revokes the others, and the new password signs in', async () => {
    const { deps, sessions } = world();
    const { session } = await signUp(deps, '203.0.113.1', { email: 'ada@example.com', password: PASSWORD });
    const other = await logIn(deps, '203.0.113.1', { email: 'ada@example.com', password: PASSWORD });
    const current = { session: session.record, tokenHash: session.hash };
    await expect(changePassword(deps, current, { current_password: 'wrong password', new_password: 'a new long password' })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(changePassword(deps, current, { current_password: PASSWORD, new_password: 'short' })).rejects.toMatchObject({ code: 'bad_request' });
    expect(await changePassword(deps, current, { current_password: PASSWORD, new_password: 'a new long password' })).toEqual({ otherSessionsRevoked: 1 });
    expect(await sessions.findByHash(session.hash)).toBeDefined();
    expect(await sessions.findByHash(other.session.hash)).toBeUndefined();
    await expect(logIn(deps, '203.0.113.1', { email: 'ada@example.com', password: PASSWORD })).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(logIn(deps, '203.0.113.1', { email: 'ada@example.com', password: 'a new long password' })).resolves.toBeDefined();
  });
});

describe('API keys', () => {
  test('a named key gets every scope unless told, is stored only as a hash, and revoking it is for its own account only', async () => {
    const { deps, accounts, apiKeys } = world();
    const mine = await accounts.create('mine', 'free');
    const theirs = await accounts.create('theirs', 'free');
    const key = await createKey(deps, mine.id, { name: 'CI' });
    expect(key).toMatchObject({ name: 'CI', scopes: ['read', 'write', 'publish'], created_at: NOW.toISOString() });
    expect(await apiKeys.findByHash(hashKey(key.key))).toMatchObject({ id: key.id, name: 'CI', revoked_at: null });
    expect((await createKey(deps, mine.id, { name: 'reader', scopes: ['read', 'read'] })).scopes).toEqual(['read']);
    await expect(revokeKey(deps, theirs.id, key.id)).rejects.toMatchObject({ code: 'not_found' });
    expect((await apiKeys.findByHash(hashKey(key.key)))?.revoked_at).toBeNull();
    await revokeKey(deps, mine.id, key.id);
    expect((await apiKeys.findByHash(hashKey(key.key)))?.revoked_at).toBe(NOW.toISOString());
  });
});
