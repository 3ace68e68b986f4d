/** Password reset over in-memory stores: asking for a link, and setting a password with it. */
import { requestPasswordReset } from '#use-cases/request-password-reset';
import { confirmPasswordReset, RESET_LINK_INVALID } from '#use-cases/confirm-password-reset';
import { signUp } from '#use-cases/sign-up';
import { logIn } from '#use-cases/log-in';
import { hashResetToken } from '#domain/password-reset';
import { testDependencies } from '#test-support/wiring';
import { MemoryAccountStore } from '#test-doubles/memory/account-store';
import { MemoryRateLimiter } from '#test-doubles/memory/rate-limiter';
import { MemorySessionStore } from '#test-doubles/memory/session-store';
import { MemoryUserStore } from '#test-doubles/memory/user-store';
import { RecordingMailer } from '#test-doubles/memory/mailer';

const START = new Date('2026-11-25T12:00:00.000Z');
const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a brand new passphrase';
const STUDIO = 'https://studio.example.com';
const IP = '203.0.113.1';

function world() {
  const accounts = new MemoryAccountStore();
  const users = new MemoryUserStore(accounts);
  const sessions = new MemorySessionStore();
  const mailer = new RecordingMailer();
  const errors: unknown[][] = [];
  const clock = { now: START };
  const deps = {
    ...testDependencies({ accounts, users, sessions, mailer, rateLimits: new MemoryRateLimiter(), studioUrl: () => STUDIO, now: () => clock.now }),
    log: { info: () => undefined, warn: () => undefined, error: (...args: unknown[]) => void errors.push(args) },
  };
  const later = (seconds: number) => (clock.now = new Date(clock.now.getTime() + seconds * 1000));
  return { deps, users, sessions, mailer, errors, later };
}

/** The token of the newest mail's link, as the person clicking it would hand it over. */
function tokenIn(mailer: RecordingMailer): string {
  const link = mailer.sent.at(-1)!.text.split('\n').find((line) => line.startsWith(`${STUDIO}/reset-password?token=`))!;
  return new URL(link).searchParams.get('token')!;
}

describe('asking for a reset link', () => {
  test('a known email gets a mail with a link to the studio reset page; only the hash of its token is stored', async () => {
    const { deps, users, mailer } = world();
    const { user } = await signUp(deps, IP, { email: 'ada@example.com', password: PASSWORD });
    await expect(requestPasswordReset(deps, IP, { email: ' ADA@example.com ' })).resolves.toBeUndefined();
    expect(mailer.sent).toHaveLength(1);
    expect(mailer.sent[0]).toMatchObject({ to: 'ada@example.com', subject: expect.stringMatching(/reset/i) });
    const token = tokenIn(mailer);
    expect(await users.findPasswordReset(hashResetToken(token))).toMatchObject({ account_id: user.account_id, user_id: user.id, expires_at: '2026-11-25T12:30:00.000Z' });
  });

  test('an unknown email resolves the same, mails nothing and stores nothing', async () => {
    const { deps, mailer } = world();
    await expect(requestPasswordReset(deps, IP, { email: 'nobody@example.com' })).resolves.toBeUndefined();
    expect(mailer.sent).toEqual([]);
  });

  test('a malformed email is 400 naming the field (it tells nothing about accounts)', async () => {
    const { deps } = world();
    await expect(requestPasswordReset(deps, IP, { email: 'ada.example.com' })).rejects.toMatchObject({ code: 'bad_request', param: 'email' });
  });

  test('a mail that cannot be sent is logged, and the request still resolves as any other', async () => {
    const { deps, mailer, errors } = world();
    await signUp(deps, IP, { email: 'ada@example.com', password: PASSWORD });
    mailer.failing = new Error('MessageRejected: Email address is not verified');
    await expect(requestPasswordReset(deps, IP, { email: 'ada@example.com' })).resolves.toBeUndefined();
    expect(errors).toEqual([['the password-reset mail was not sent', expect.objectContaining({ error: expect.objectContaining({ message: expect.stringContaining('not verified') }) })]]);
  });

  test('5 requests per email an hour, known or not: the 6th is 429 with a wait, another email is not held up', async () => {
    const { deps, mailer, later } = world();
    await signUp(deps, IP, { email: 'ada@example.com', password: PASSWORD });
    for (const email of ['ada@example.com', 'nobody@example.com']) {
      for (let i = 0; i < 5; i++) await requestPasswordReset(deps, `198.51.100.${i}`, { email });
      await expect(requestPasswordReset(deps, '198.51.100.99', { email })).rejects.toMatchObject({
        code: 'rate_limited',
        message: expect.stringMatching(/^Too many password-reset requests/),
        headers: { 'retry-after': expect.stringMatching(/^[1-9]\d*$/) },
      });
    }
    expect(mailer.sent).toHaveLength(5);
    await expect(requestPasswordReset(deps, '198.51.100.99', { email: 'grace@example.com' })).resolves.toBeUndefined();
    later(2 * 3600);
    await expect(requestPasswordReset(deps, '198.51.100.99', { email: 'ada@example.com' })).resolves.toBeUndefined();
  });

  test('one address gets 30 sign-in and reset requests a minute between them', async () => {
    const { deps } = world();
    const tries = Array.from({ length: 31 }, (_, i) => requestPasswordReset(deps, '203.0.113.9', { email: `u${i}@example.com` }).then(() => 'ok', (e: { code: string }) => e.code));
    const outcomes = await Promise.all(tries);
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(30);
    expect(outcomes.filter((o) => o === 'rate_limited')).toHaveLength(1);
  });
});

describe('setting a new password with the link', () => {
  async function withLink() {
    const w = world();
    const signedUp = await signUp(w.deps, IP, { email: 'ada@example.com', password: PASSWORD });
    await requestPasswordReset(w.deps, IP, { email: 'ada@example.com' });
    return { ...w, signedUp, token: tokenIn(w.mailer) };
  }

  test('sets the password, signs in with a new session and revokes every other session', async () => {
    const { deps, sessions, signedUp, token } = await withLink();
    const other = await logIn(deps, IP, { email: 'ada@example.com', password: PASSWORD });
    const result = await confirmPasswordReset(deps, IP, { token, password: NEW_PASSWORD });
    expect(result).toMatchObject({ user: { email: 'ada@example.com' }, account: { id: signedUp.account.id }, otherSessionsRevoked: 2 });
    expect(await sessions.findByHash(result.session.hash)).toEqual(result.session.record);
    expect(await sessions.findByHash(signedUp.session.hash)).toBeUndefined();
    expect(await sessions.findByHash(other.session.hash)).toBeUndefined();
    await expect(logIn(deps, IP, { email: 'ada@example.com', password: PASSWORD })).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(logIn(deps, IP, { email: 'ada@example.com', password: NEW_PASSWORD })).resolves.toBeDefined();
  });

  test('works once: the same token again is 400 naming the token', async () => {
    const { deps, token } = await withLink();
    await confirmPasswordReset(deps, IP, { token, password: NEW_PASSWORD });
    await expect(confirmPasswordReset(deps, IP, { token, password: 'yet another passphrase' })).rejects.toMatchObject({ code: 'bad_request', param: 'token', message: RESET_LINK_INVALID });
    await expect(logIn(deps, IP, { email: 'ada@example.com', password: NEW_PASSWORD })).resolves.toBeDefined();
  });

  test('of concurrent confirms with one token exactly one succeeds; the others are 400 and change nothing', async () => {
    const { deps, token } = await withLink();
    const passwords = ['first racer passphrase', 'second racer passphrase', 'third racer passphrase'];
    const outcomes = await Promise.allSettled(passwords.map((password) => confirmPasswordReset(deps, IP, { token, password })));
    const won = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [passwords[i]!] : []));
    expect(won).toHaveLength(1);
    for (const o of outcomes.filter((o) => o.status === 'rejected')) expect(o.reason).toMatchObject({ code: 'bad_request', param: 'token' });
    for (const password of passwords.filter((p) => p !== won[0])) {
      await expect(logIn(deps, IP, { email: 'ada@example.com', password })).rejects.toMatchObject({ code: 'unauthorized' });
    }
    await expect(logIn(deps, IP, { email: 'ada@example.com', password: won[0]! })).resolves.toBeDefined();
  });

  test('works for 30 minutes: a second before the end it does, at the end it is 400', async () => {
    const early = await withLink();
    early.later(30 * 60 - 1);
    await expect(confirmPasswordReset(early.deps, IP, { token: early.token, password: NEW_PASSWORD })).resolves.toBeDefined();
    const late = await withLink();
    late.later(30 * 60);
    await expect(confirmPasswordReset(late.deps, IP, { token: late.token, password: NEW_PASSWORD })).rejects.toMatchObject({ code: 'bad_request', param: 'token' });
    await expect(logIn(late.deps, IP, { email: 'ada@example.com', password: PASSWORD })).resolves.toBeDefined();
  });

  test('a newer link replaces the older one', async () => {
    const { deps, mailer, token: older } = await withLink();
    await requestPasswordReset(deps, IP, { email: 'ada@example.com' });
    const newer = tokenIn(mailer);
    await expect(confirmPasswordReset(deps, IP, { token: older, password: NEW_PASSWORD })).rejects.toMatchObject({ code: 'bad_request', param: 'token' });
    await expect(confirmPasswordReset(deps, IP, { token: newer, password: NEW_PASSWORD })).resolves.toBeDefined();
  });

  test('a password outside the policy is 400 naming the password, and the link keeps working', async () => {
    const { deps, token } = await withLink();
    await expect(confirmPasswordReset(deps, IP, { token, password: 'short' })).rejects.toMatchObject({ code: 'bad_request', param: 'password', message: expect.stringContaining('at least 10 characters') });
    await expect(confirmPasswordReset(deps, IP, { token, password: 'password123' })).rejects.toMatchObject({ code: 'bad_request', param: 'password', message: expect.stringContaining('most common') });
    await expect(confirmPasswordReset(deps, IP, { token, password: NEW_PASSWORD })).resolves.toBeDefined();
  });

  test('a token that cannot be ours is refused without reading the store; an unknown one after reading it', async () => {
    const { deps, users } = await withLink();
    const lookups: string[] = [];
    const find = users.findPasswordReset.bind(users);
    users.findPasswordReset = (hash) => (lookups.push(hash), find(hash));
    for (const token of ['', 'garbage', `${'x'.repeat(42)}!`, 'x'.repeat(1000)]) {
      await expect(confirmPasswordReset(deps, IP, { token, password: NEW_PASSWORD })).rejects.toMatchObject({ code: 'bad_request', param: 'token' });
    }
    expect(lookups).toEqual([]);
    await expect(confirmPasswordReset(deps, IP, { token: 'A'.repeat(43), password: NEW_PASSWORD })).rejects.toMatchObject({ code: 'bad_request', param: 'token' });
    expect(lookups).toEqual([hashResetToken('A'.repeat(43))]);
  });

  test('a password changed another way voids the link', async () => {
    const { deps, users, signedUp, token } = await withLink();
    await users.setPasswordHash(signedUp.account.id, signedUp.user.id, 'scrypt$elsewhere');
    await expect(confirmPasswordReset(deps, IP, { token, password: NEW_PASSWORD })).rejects.toMatchObject({ code: 'bad_request', param: 'token' });
  });
});
