/**
 * A stand-in for the credential cipher: nothing is encrypted (the ciphertext is the plaintext in
 * base64), but a record is bound as the real ones are. An HMAC under the double's key over the
 * record's header, owner and every field is its tag, so a record opened for another account or
 * provider, under another key, or altered in any field is refused; one of another version,
 * algorithm or wrapping, or not in base64, is malformed (test/support/credential-cipher-contract.ts).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SealedSecret } from '#domain/sealed-secret';
import { CredentialCipherError, type CipherContext, type CredentialCipher } from '#ports/credential-cipher';

const FIELDS = ['encrypted_key', 'iv', 'tag', 'ciphertext'] as const;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export class MemoryCredentialCipher implements CredentialCipher {
  readonly kind = 'file' as const;

  /** `key`: two doubles given the same key open each other's records (a fresh one per double by default). */
  constructor(private readonly key: Buffer = randomBytes(32)) {}

  async seal(plaintext: string, context: CipherContext): Promise<SealedSecret> {
    // A fresh "data key" and iv per record, as the real cipher has, so no two records are alike.
    const unsigned = { encrypted_key: randomBytes(16).toString('base64'), iv: randomBytes(12).toString('base64'), ciphertext: Buffer.from(plaintext, 'utf8').toString('base64') };
    return { v: 1, alg: 'AES-256-GCM', kek: 'file', ...unsigned, tag: this.tagOf(unsigned, context).toString('base64') };
  }

  async open(sealed: SealedSecret, context: CipherContext): Promise<string> {
    if (!sealed || typeof sealed !== 'object' || sealed.v !== 1 || sealed.alg !== 'AES-256-GCM' || sealed.kek !== this.kind) {
      throw new CredentialCipherError('malformed', 'sealed credentials: unknown version, algorithm or wrapping');
    }
    for (const field of FIELDS) {
      if (typeof sealed[field] !== 'string' || !BASE64.test(sealed[field])) throw new CredentialCipherError('malformed', `sealed credentials: ${field} is not base64`);
    }
    const expected = this.tagOf(sealed, context);
    const tag = Buffer.from(sealed.tag, 'base64');
    if (tag.length !== expected.length || !timingSafeEqual(tag, expected)) {
      throw new CredentialCipherError('refused', 'sealed credentials failed authentication (altered, or sealed for another owner or key)');
    }
    return Buffer.from(sealed.ciphertext, 'base64').toString('utf8');
  }

  /** Over the decoded bytes, so a re-encoding of the same bytes is the same record. */
  private tagOf(record: Pick<SealedSecret, 'encrypted_key' | 'iv' | 'ciphertext'>, context: CipherContext): Buffer {
    const hmac = createHmac('sha256', this.key).update(JSON.stringify(['v1', 'AES-256-GCM', this.kind, String(context.accountId), context.provider]));
    for (const field of ['encrypted_key', 'iv', 'ciphertext'] as const) {
      const bytes = Buffer.from(record[field], 'base64');
      hmac.update(`${bytes.length}:`).update(bytes);
    }
    return hmac.digest().subarray(0, 16);
  }
}
