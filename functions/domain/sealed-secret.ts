/**
 * A secret as it is stored: sealed by envelope encryption, one fresh data key per record, the data
 * key wrapped by KMS on AWS or by a local key file. Records made either way have the same shape, so
 * the stores that keep them do not care which wrapped them. Every binary field is base64.
 */
export interface SealedSecret {
  v: 1;
  alg: 'AES-256-GCM';
  /** Who wrapped the data key: KMS (`GenerateDataKey`), or the local key file. */
  kek: 'kms' | 'file';
  /** The wrapped data key (KMS ciphertext blob, or iv‖tag‖ciphertext under the key file). */
  encrypted_key: string;
  iv: string;
  tag: string;
  ciphertext: string;
}
