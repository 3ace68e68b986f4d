/**
 * What every CredentialCipher must do, run against the key-file cipher (the local runtime's) and the
 * in-memory double the social use-case tests use: a record opens only for its owner, under its key,
 * unaltered; a record it did not write is malformed, not attempted.
 */
import type { SealedSecret } from '#domain/sealed-secret';
import type { CredentialCipher } from '#ports/credential-cipher';

const SECRET = JSON.stringify({ apiKey: 'sk_live_0123456789abcdef', profileKey: 'PROFILE-42' });
const OWNER = { accountId: 7, provider: 'provider_a' };
const FIELDS = ['encrypted_key', 'iv', 'tag', 'ciphertext'] as const;

/** Flips one bit of a base64 field. */
function flip(sealed: SealedSecret, field: (typeof FIELDS)[number]): SealedSecret {
  const bytes = Buffer.from(sealed[field], 'base64');
  bytes[bytes.length - 1]! ^= 0x01;
  return { ...sealed, [field]: bytes.toString('base64') };
}

export interface CipherFactories {
  cipher: () => CredentialCipher;
  /** Another cipher under the same key (another process on the same key file). */
  sameKey: () => CredentialCipher;
  /** A cipher under another key. */
  otherKey: () => CredentialCipher;
}

export function credentialCipherContract(make: CipherFactories): void {
  describe('the credential cipher', () => {
    test('a sealed record opens to the plaintext for its owner, under its own key, and names its wrapping', async () => {
      const cipher = make.cipher();
      const sealed = await cipher.seal(SECRET, OWNER);
      expect(sealed).toEqual({ v: 1, alg: 'AES-256-GCM', kek: cipher.kind, ...Object.fromEntries(FIELDS.map((f) => [f, expect.stringMatching(/^[A-Za-z0-9+/]+={0,2}$/)])) });
      expect(JSON.stringify(sealed)).not.toContain('sk_live');
      expect(await cipher.open(sealed, OWNER)).toBe(SECRET);
      expect(await make.sameKey().open(sealed, OWNER)).toBe(SECRET);
    });

    test('any text round-trips, the empty string and non-ASCII included', async () => {
      const cipher = make.cipher();
      for (const text of ['', 'clé 🔑 ключ', 'x'.repeat(5000)]) expect(await cipher.open(await cipher.seal(text, OWNER), OWNER)).toBe(text);
    });

    test('each seal is a record of its own: sealing the same secret twice gives two different records', async () => {
      const cipher = make.cipher();
      const [a, b] = [await cipher.seal(SECRET, OWNER), await cipher.seal(SECRET, OWNER)];
      expect(a.ciphertext === b.ciphertext && a.iv === b.iv).toBe(false);
      expect([await cipher.open(a, OWNER), await cipher.open(b, OWNER)]).toEqual([SECRET, SECRET]);
    });

    test('opened for another account or another provider, a record is refused', async () => {
      const cipher = make.cipher();
      const sealed = await cipher.seal(SECRET, OWNER);
      await expect(cipher.open(sealed, { ...OWNER, accountId: 8 })).rejects.toMatchObject({ name: 'CredentialCipherError', kind: 'refused' });
      await expect(cipher.open(sealed, { ...OWNER, provider: 'provider_b' })).rejects.toMatchObject({ name: 'CredentialCipherError', kind: 'refused' });
    });

    test.each(FIELDS)('a record with its %s altered is refused', async (field) => {
      const cipher = make.cipher();
      const sealed = await cipher.seal(SECRET, OWNER);
      await expect(cipher.open(flip(sealed, field), OWNER)).rejects.toMatchObject({ name: 'CredentialCipherError', kind: 'refused' });
    });

    test('a record sealed under another key is refused', async () => {
      const sealed = await make.cipher().seal(SECRET, OWNER);
      await expect(make.otherKey().open(sealed, OWNER)).rejects.toMatchObject({ name: 'CredentialCipherError', kind: 'refused' });
    });

    test('a record of another version, algorithm or wrapping, or with a field not in base64, is malformed', async () => {
      const cipher = make.cipher();
      const sealed = await cipher.seal(SECRET, OWNER);
      const otherKek = cipher.kind === 'kms' ? 'file' : 'kms';
      for (const record of [{ ...sealed, v: 2 as never }, { ...sealed, alg: 'AES-128-CBC' as never }, { ...sealed, kek: otherKek }, { ...sealed, iv: 'not base64!' }]) {
        await expect(cipher.open(record as SealedSecret, OWNER)).rejects.toMatchObject({ name: 'CredentialCipherError', kind: 'malformed' });
      }
    });

    test('a refusal never carries the plaintext', async () => {
      const cipher = make.cipher();
      const sealed = await cipher.seal(SECRET, OWNER);
      const failure = (await cipher.open(sealed, { ...OWNER, accountId: 9 }).catch((e: unknown) => e)) as Error;
      expect(`${failure.message} ${String(failure.cause)}`).not.toContain('sk_live');
    });
  });
}
