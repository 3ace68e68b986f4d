/**
 * The port that seals an account's provider credentials at rest: envelope encryption, one fresh data
 * key per record, the data key wrapped by KMS on AWS or by a local key file (#domain/sealed-secret).
 */
import type { SealedSecret } from '#domain/sealed-secret';

/** Binds a sealed record to its owner: opened under any other context it is refused. */
export interface CipherContext {
  accountId: number;
  provider: string;
}

export interface CredentialCipher {
  readonly kind: SealedSecret['kek'];
  seal(plaintext: string, context: CipherContext): Promise<SealedSecret>;
  /** Throws CredentialCipherError when the record was altered, or belongs to another context or key. */
  open(sealed: SealedSecret, context: CipherContext): Promise<string>;
}

export type CredentialCipherErrorKind =
  /** Tampered, sealed for another account/provider, or under another key: it will never open. */
  | 'refused'
  /** Not a record this code wrote (unknown version, algorithm or wrapping). */
  | 'malformed';

/** Never carries plaintext or key material; safe to log. */
export class CredentialCipherError extends Error {
  readonly kind: CredentialCipherErrorKind;

  constructor(kind: CredentialCipherErrorKind, message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'CredentialCipherError';
    this.kind = kind;
  }
}

export const isCredentialCipherError = (error: unknown): error is CredentialCipherError => error instanceof CredentialCipherError;
