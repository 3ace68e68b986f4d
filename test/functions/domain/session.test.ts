import { cookieMaxAgeS, hashSessionToken, isSessionLive, isWellFormedSessionToken, newSession, slidSession } from '#domain/session';

const NOW = new Date('2026-11-01T00:00:00.000Z');
const at = (days: number, minutes = 0) => new Date(NOW.getTime() + days * 86_400_000 + minutes * 60_000);

test('a new session ends 7 days idle, 30 days at most, and only its token hash identifies it', () => {
  const session = newSession(1, 2, NOW);
  expect(isWellFormedSessionToken(session.token)).toBe(true);
  expect(session.hash).toBe(hashSessionToken(session.token));
  expect(session.record).toMatchObject({ account_id: 1, user_id: 2, expires_at: at(7).toISOString(), absolute_expires_at: at(30).toISOString() });
  expect(session.record.csrf_token).not.toBe(session.token);
  expect(isSessionLive(session.record, at(6, 1439))).toBe(true);
  expect(isSessionLive(session.record, at(7))).toBe(false);
  expect(cookieMaxAgeS(session.record, NOW)).toBe(30 * 86_400);
});

test('a use slides the idle end, but not past the absolute one, and a use within minutes writes nothing', () => {
  const { record } = newSession(1, 2, NOW);
  expect(slidSession(record, at(0, 4))).toBeUndefined();
  const day6 = slidSession(record, at(6))!;
  expect(day6.expires_at).toBe(at(13).toISOString());
  let current = day6;
  for (const day of [12, 18, 24]) current = slidSession(current, at(day))!;
  expect(current.expires_at).toBe(at(30).toISOString());
  expect(isSessionLive(current, at(30))).toBe(false);
});
