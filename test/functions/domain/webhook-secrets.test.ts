/** Secret rotation: the replaced secret keeps signing for its overlap, then only the new one does. */
import { rotatedSecrets, signingSecrets, SECRET_OVERLAP_S } from '#domain/webhook-secrets';

const NOW = new Date('2026-11-30T12:00:00.000Z');
const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

test('after a rotation both secrets sign, the new one first, until the overlap ends', () => {
  const secrets = rotatedSecrets({ secret: 'whsec_old' }, 'whsec_new', SECRET_OVERLAP_S.default, NOW);
  expect(secrets).toEqual({ secret: 'whsec_new', previous_secret: 'whsec_old', previous_secret_expires_at: at(24 * 3600).toISOString() });
  expect(signingSecrets(secrets, at(24 * 3600 - 1))).toEqual(['whsec_new', 'whsec_old']);
  expect(signingSecrets(secrets, at(24 * 3600))).toEqual(['whsec_new']);
});

test('an overlap of 0 ends the old secret at once', () => {
  const secrets = rotatedSecrets({ secret: 'whsec_old' }, 'whsec_new', 0, NOW);
  expect(secrets).toEqual({ secret: 'whsec_new', previous_secret: null, previous_secret_expires_at: null });
  expect(signingSecrets(secrets, NOW)).toEqual(['whsec_new']);
});

test('rotating again keeps only the secret it replaces: an older overlap ends', () => {
  const first = rotatedSecrets({ secret: 'whsec_a' }, 'whsec_b', 3600, NOW);
  const second = rotatedSecrets(first, 'whsec_c', 3600, at(60));
  expect(signingSecrets(second, at(120))).toEqual(['whsec_c', 'whsec_b']);
});
