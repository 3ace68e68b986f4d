import { hashResetToken, isPasswordResetLive, isWellFormedResetToken, newPasswordReset, passwordResetMail, resetLink, RESET_TOKEN_TTL_S } from '#domain/password-reset';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const after = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

test('a reset token is 256 random bits in base64url, and the record keeps only its SHA-256', () => {
  const { token, record } = newPasswordReset({ id: 7, account_id: 3 }, NOW);
  expect(isWellFormedResetToken(token)).toBe(true);
  expect(Buffer.from(token, 'base64url')).toHaveLength(32);
  expect(record).toEqual({ token_hash: hashResetToken(token), account_id: 3, user_id: 7, created_at: NOW.toISOString(), expires_at: after(1800).toISOString() });
  expect(record.token_hash).toMatch(/^[0-9a-f]{64}$/);
  expect(JSON.stringify(record)).not.toContain(token);
  expect(newPasswordReset({ id: 7, account_id: 3 }, NOW).token).not.toBe(token);
});

test('a reset is live for 30 minutes and not a moment longer', () => {
  const { record } = newPasswordReset({ id: 7, account_id: 3 }, NOW);
  expect(RESET_TOKEN_TTL_S).toBe(30 * 60);
  expect(isPasswordResetLive(record, NOW)).toBe(true);
  expect(isPasswordResetLive(record, new Date(after(1800).getTime() - 1))).toBe(true);
  expect(isPasswordResetLive(record, after(1800))).toBe(false);
});

test.each(['', 'short', `${'a'.repeat(42)}=`, 'a'.repeat(44), `${'a'.repeat(42)}/`, `${'a'.repeat(42)} `])('%j is no token of ours', (candidate) => {
  expect(isWellFormedResetToken(candidate)).toBe(false);
});

test("the link is the studio's reset page with the token, whether or not the studio's address ends in a slash", () => {
  expect(resetLink('https://d1.cloudfront.net', 'tok_EN-1')).toBe('https://d1.cloudfront.net/reset-password?token=tok_EN-1');
  expect(resetLink('http://127.0.0.1:3000/', 'tok_EN-1')).toBe('http://127.0.0.1:3000/reset-password?token=tok_EN-1');
});

test('the mail goes to the address asked for, carries the link, and says how long it works', () => {
  const mail = passwordResetMail('ada@example.com', 'https://studio.example.com/reset-password?token=abc');
  expect(mail.to).toBe('ada@example.com');
  expect(mail.subject).toMatch(/reset/i);
  expect(mail.text.split('\n')).toContain('https://studio.example.com/reset-password?token=abc');
  expect(mail.text).toContain('30 minutes');
});
