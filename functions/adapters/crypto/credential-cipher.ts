/**
 * Envelope encryption of provider credentials (ports/credential-cipher.ts).
 *
 * Every record gets its own 256-bit data key; the credentials are sealed with it by AES-256-GCM here
 * in Node, and only the wrapped data key is stored beside them:
 * - on AWS (kmsCredentialCipher): KMS `GenerateDataKey` makes and wraps the data key, `Decrypt`
 *   unwraps it. Both carry the encryption context `{account_id, provider}`, which KMS checks (and
 *   CloudTrail records), and which the IAM grants require.
 * - locally (fileCredentialCipher): a 32-byte key file under the data dir, created with mode 0600 on
 *   first use, wraps the data key with AES-256-GCM instead; the record keeps the same shape.
 * The context is also the GCM additional data of both layers, so a record copied to another account
 * or provider fails to open whichever way it was wrapped. Plaintext and keys are never logged, and
 * data keys are zeroed once used. Each runtime's wiring builds one cipher and keeps it.
 *
 * Ours, not the AWS Encryption SDK: the stored records are in this shape (the SDK's message format
 * would mean re-sealing every stored credential), and the local key-file wrapping the twin needs is
 * twenty lines here against a raw-keyring setup there; KMS and AES-GCM themselves are Node's and AWS's.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { link, mkdir, open, readFile, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { KMSClient } from '@aws-sdk/client-kms';
import { CredentialCipherError, type CipherContext, type CredentialCipher } from '#ports/credential-cipher';
import type { SealedSecret } from '#domain/sealed-secret';

const ALG = 'AES-256-GCM' as const;
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The KMS encryption context (string values only) for a record's owner. */
function kmsEncryptionContext(context: CipherContext): Record<string, string> {
  return { account_id: String(context.accountId), provider: context.provider };
}

/** GCM additional data: the record's header and its owner, in a fixed order. */
function additionalData(kek: SealedSecret['kek'], context: CipherContext): Buffer {
  return Buffer.from(JSON.stringify(['v1', ALG, kek, String(context.accountId), context.provider]), 'utf8');
}

function gcmSeal(key: Uint8Array, plaintext: Buffer, aad: Buffer): { iv: Buffer; tag: Buffer; ciphertext: Buffer } {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), ciphertext };
}

function gcmOpen(key: Uint8Array, parts: { iv: Buffer; tag: Buffer; ciphertext: Buffer }, aad: Buffer, what: string): Buffer {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, parts.iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad);
    decipher.setAuthTag(parts.tag);
    return Buffer.concat([decipher.update(parts.ciphertext), decipher.final()]);
  } catch (error) {
    throw new CredentialCipherError('refused', `${what} failed authentication (altered, or sealed for another owner or key)`, {
      cause: error,
    });
  }
}

function decodeField(sealed: SealedSecret, field: 'encrypted_key' | 'iv' | 'tag' | 'ciphertext'): Buffer {
  const value = sealed[field];
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) {
    throw new CredentialCipherError('malformed', `sealed credentials: ${field} is not base64`);
  }
  return Buffer.from(value, 'base64');
}

/** Checks the header and splits the record into its binary parts. */
function unpack(sealed: SealedSecret, kek: SealedSecret['kek']) {
  if (!sealed || typeof sealed !== 'object' || sealed.v !== 1 || sealed.alg !== ALG) {
    throw new CredentialCipherError('malformed', 'sealed credentials: unknown version or algorithm');
  }
  if (sealed.kek !== kek) {
    throw new CredentialCipherError('malformed', `sealed credentials were wrapped by ${String(sealed.kek)}, this service uses ${kek}`);
  }
  const parts = {
    encryptedKey: decodeField(sealed, 'encrypted_key'),
    iv: decodeField(sealed, 'iv'),
    tag: decodeField(sealed, 'tag'),
    ciphertext: decodeField(sealed, 'ciphertext'),
  };
  if (parts.iv.length !== IV_BYTES || parts.tag.length !== TAG_BYTES) {
    throw new CredentialCipherError('malformed', 'sealed credentials: bad iv or tag length');
  }
  return parts;
}

function pack(kek: SealedSecret['kek'], encryptedKey: Uint8Array, sealed: { iv: Buffer; tag: Buffer; ciphertext: Buffer }): SealedSecret {
  return {
    v: 1,
    alg: ALG,
    kek,
    encrypted_key: Buffer.from(encryptedKey).toString('base64'),
    iv: sealed.iv.toString('base64'),
    tag: sealed.tag.toString('base64'),
    ciphertext: sealed.ciphertext.toString('base64'),
  };
}

// ---- AWS: KMS wraps the data key ----

export interface KmsCipherOptions {
  /**
   * Key id, ARN or alias of the symmetric KMS key (CONNECTION_KEY_ID). Only the functions that seal or
   * open credentials are given one, so without it the cipher fails when used, not when built.
   */
  keyId: string | undefined;
  /** The region of a key named without an ARN (an ARN's own region wins: the admin CLI may run configured for another). */
  region: string;
  client?: KMSClient;
}

const KMS_REFUSALS = new Set(['InvalidCiphertextException', 'IncorrectKeyException']);

export function kmsCredentialCipher(options: KmsCipherOptions): CredentialCipher {
  let client: Promise<KMSClient> | undefined;
  // The SDK's KMS client loads on first use: functions that never touch credentials do not pay for it.
  const kms = () =>
    (client ??= options.client
      ? Promise.resolve(options.client)
      : import('@aws-sdk/client-kms').then(({ KMSClient }) => new KMSClient({ region: kmsRegion(keyId()) ?? options.region })));
  const keyId = () => {
    if (!options.keyId) throw new Error('no connection key: environment variable CONNECTION_KEY_ID is not set for this function');
    return options.keyId;
  };
  return {
    kind: 'kms',
    async seal(plaintext, context) {
      const { GenerateDataKeyCommand } = await import('@aws-sdk/client-kms');
      const out = await (await kms()).send(
        new GenerateDataKeyCommand({ KeyId: keyId(), KeySpec: 'AES_256', EncryptionContext: kmsEncryptionContext(context) }),
      );
      if (!out.Plaintext || out.Plaintext.length !== KEY_BYTES || !out.CiphertextBlob) {
        throw new Error('KMS GenerateDataKey returned no usable data key');
      }
      const dataKey = out.Plaintext;
      try {
        return pack('kms', out.CiphertextBlob, gcmSeal(dataKey, Buffer.from(plaintext, 'utf8'), additionalData('kms', context)));
      } finally {
        dataKey.fill(0);
      }
    },
    async open(sealed, context) {
      const parts = unpack(sealed, 'kms');
      const { DecryptCommand } = await import('@aws-sdk/client-kms');
      let dataKey: Uint8Array | undefined;
      try {
        const out = await (await kms()).send(
          new DecryptCommand({
            CiphertextBlob: parts.encryptedKey,
            // Pinning the key: a blob wrapped under any other key is refused rather than decrypted.
            KeyId: keyId(),
            EncryptionContext: kmsEncryptionContext(context),
          }),
        );
        dataKey = out.Plaintext;
      } catch (error) {
        if (KMS_REFUSALS.has((error as Error).name)) {
          throw new CredentialCipherError('refused', 'KMS refused to unwrap the data key (altered, or sealed for another owner or key)', {
            cause: error,
          });
        }
        throw error;
      }
      if (!dataKey || dataKey.length !== KEY_BYTES) throw new Error('KMS Decrypt returned no usable data key');
      try {
        return gcmOpen(dataKey, parts, additionalData('kms', context), 'sealed credentials').toString('utf8');
      } finally {
        dataKey.fill(0);
      }
    },
  };
}

const kmsRegion = (keyId: string) => /^arn:aws[\w-]*:kms:([a-z0-9-]+):/.exec(keyId)?.[1];

// ---- local: a key file wraps the data key ----

/**
 * Reads the key file, creating it (0600, in a 0700 folder) when it does not exist. A new key is
 * written to a private temp file and hard-linked into place, so a concurrent reader (the local server
 * and the CLI share the file) sees either no file or the whole key, and two creators agree on one.
 */
async function loadOrCreateKeyFile(path: string): Promise<Buffer> {
  const existing = await readKeyFile(path);
  if (existing) return existing;
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temp, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL, 0o600);
  try {
    const key = randomBytes(KEY_BYTES);
    await handle.writeFile(key);
    await handle.sync();
    key.fill(0);
  } finally {
    await handle.close();
  }
  try {
    await link(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  const key = await readKeyFile(path);
  if (!key) throw new Error(`connection key file ${path} could not be created`);
  return key;
}

async function readKeyFile(path: string): Promise<Buffer | undefined> {
  let key: Buffer;
  try {
    key = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (key.length !== KEY_BYTES) {
    key.fill(0);
    throw new Error(`connection key file ${path} must hold exactly ${KEY_BYTES} bytes`);
  }
  return key;
}

export function fileCredentialCipher(path: string): CredentialCipher {
  let loading: Promise<Buffer> | undefined;
  const fileKey = () => {
    if (!loading) {
      const attempt = loadOrCreateKeyFile(path);
      // A failed read is not kept: the next call tries again.
      attempt.catch(() => {
        if (loading === attempt) loading = undefined;
      });
      loading = attempt;
    }
    return loading;
  };
  return {
    kind: 'file',
    async seal(plaintext, context) {
      const aad = additionalData('file', context);
      const dataKey = randomBytes(KEY_BYTES);
      try {
        const wrapped = gcmSeal(await fileKey(), dataKey, aad);
        const encryptedKey = Buffer.concat([wrapped.iv, wrapped.tag, wrapped.ciphertext]);
        return pack('file', encryptedKey, gcmSeal(dataKey, Buffer.from(plaintext, 'utf8'), aad));
      } finally {
        dataKey.fill(0);
      }
    },
    async open(sealed, context) {
      const parts = unpack(sealed, 'file');
      if (parts.encryptedKey.length !== IV_BYTES + TAG_BYTES + KEY_BYTES) {
        throw new CredentialCipherError('malformed', 'sealed credentials: bad wrapped key length');
      }
      const aad = additionalData('file', context);
      const wrapped = {
        iv: parts.encryptedKey.subarray(0, IV_BYTES),
        tag: parts.encryptedKey.subarray(IV_BYTES, IV_BYTES + TAG_BYTES),
        ciphertext: parts.encryptedKey.subarray(IV_BYTES + TAG_BYTES),
      };
      const dataKey = gcmOpen(await fileKey(), wrapped, aad, 'wrapped data key');
      try {
        return gcmOpen(dataKey, parts, aad, 'sealed credentials').toString('utf8');
      } finally {
        dataKey.fill(0);
      }
    },
  };
}

// ---- the local runtime's key file ----

/** Where the local runtime and the admin CLI keep the key file, so both seal and open alike. */
export const localConnectionKeyFile = (dataDir: string) => join(dataDir, 'secrets', 'connection.key');

export const localCredentialCipher = (dataDir: string): CredentialCipher => fileCredentialCipher(localConnectionKeyFile(dataDir));
