/**
 * A stand-in for the credential cipher: records are bound to their owner as the real ones are (opened
 * for another account or provider, or altered, they are refused), but nothing is encrypted.
 */
import type { SealedSecret } from '#domain/sealed-secret';
import { CredentialCipherError, type CipherContext, type CredentialCipher } from '#ports/credential-cipher';

const ownerOf = (context: CipherContext) => `${context.accountId}/${context.provider}`;

export class MemoryCredentialCipher implements CredentialCipher {
  readonly kind = 'file' as const;

  async seal(plaintext: string, context: CipherContext): Promise<SealedSecret> {
    const ciphertext = Buffer.from(JSON.stringify({ owner: ownerOf(context), plaintext }), 'utf8').toString('base64');
    return { v: 1, alg: 'AES-256-GCM', kek: 'file', encrypted_key: '', iv: '', tag: '', ciphertext };
  }

  async open(sealed: SealedSecret, context: CipherContext): Promise<string> {
    let record: { owner?: unknown; plaintext?: unknown };
    try {
      record = JSON.parse(Buffer.from(sealed.ciphertext, 'base64').toString('utf8')) as typeof record;
    } catch (error) {
      throw new CredentialCipherError('refused', 'sealed credentials failed authentication', { cause: error });
    }
    if (record.owner !== ownerOf(context) || typeof record.plaintext !== 'string') {
      throw new CredentialCipherError('refused', 'sealed credentials failed authentication (altered, or sealed for another owner)');
    }
    return record.plaintext;
  }
}
