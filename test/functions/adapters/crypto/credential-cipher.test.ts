/** Envelope encryption of provider credentials: the local key file and KMS (mocked) paths. */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { mockClient } from 'aws-sdk-client-mock';
import { DecryptCommand, GenerateDataKeyCommand, InvalidCiphertextException, KMSClient } from '@aws-sdk/client-kms';
import { fileCredentialCipher, kmsCredentialCipher, localConnectionKeyFile, localCredentialCipher } from '#adapters/crypto/credential-cipher';
import { CredentialCipherError } from '#ports/credential-cipher';
import type { SealedSecret } from '#domain/sealed-secret';

const SECRET = JSON.stringify({ apiKey: 'sk_live_0123456789abcdef', profileKey: 'PROFILE-42' });
const OWNER = { accountId: 7, provider: 'provider_a' };

/** Flips one bit of a base64 field. */
function flip(sealed: SealedSecret, field: 'encrypted_key' | 'iv' | 'tag' | 'ciphertext'): SealedSecret {
  const bytes = Buffer.from(sealed[field], 'base64');
  bytes[bytes.length - 1]! ^= 0x01;
  return { ...sealed, [field]: bytes.toString('base64') };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rs-cipher-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the local key-file cipher', () => {
  const keyPath = () => join(dir, 'secrets', 'connection.key');

  test('round-trips, and the record holds no plaintext', async () => {
    const cipher = fileCredentialCipher(keyPath());
    const sealed = await cipher.seal(SECRET, OWNER);
    expect(sealed).toEqual({
      v: 1,
      alg: 'AES-256-GCM',
      kek: 'file',
      encrypted_key: expect.any(String),
      iv: expect.any(String),
      tag: expect.any(String),
      ciphertext: expect.any(String),
    });
    expect(JSON.stringify(sealed)).not.toContain('sk_live');
    expect(Buffer.from(sealed.ciphertext, 'base64').toString('latin1')).not.toContain('sk_live');
    expect(await cipher.open(sealed, OWNER)).toBe(SECRET);
  });

  test('each seal uses a fresh data key and iv', async () => {
    const cipher = fileCredentialCipher(keyPath());
    const [a, b] = [await cipher.seal(SECRET, OWNER), await cipher.seal(SECRET, OWNER)];
    expect(a.encrypted_key).not.toBe(b.encrypted_key);
    expect(a.iv).not.toBe(b.iv);
    expect(a.ciphertext).not.toBe(b.ciphertext);
  });

  test('creates a 32-byte key file readable by its owner only, in a private folder, on first use', async () => {
    await fileCredentialCipher(keyPath()).seal(SECRET, OWNER);
    const stat = statSync(keyPath());
    expect(stat.size).toBe(32);
    expect(stat.mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'secrets')).mode & 0o077).toBe(0);
  });

  test('another process (a fresh cipher on the same file) opens what this one sealed', async () => {
    const sealed = await fileCredentialCipher(keyPath()).seal(SECRET, OWNER);
    expect(await fileCredentialCipher(keyPath()).open(sealed, OWNER)).toBe(SECRET);
  });

  test('concurrent first uses agree on one key', async () => {
    const sealed = await Promise.all(
      Array.from({ length: 8 }, () => fileCredentialCipher(keyPath()).seal(SECRET, OWNER)),
    );
    const cipher = fileCredentialCipher(keyPath());
    for (const record of sealed) expect(await cipher.open(record, OWNER)).toBe(SECRET);
  });

  test.each(['encrypted_key', 'iv', 'tag', 'ciphertext'] as const)('a record with its %s altered is refused (GCM)', async (field) => {
    const cipher = fileCredentialCipher(keyPath());
    const sealed = await cipher.seal(SECRET, OWNER);
    await expect(cipher.open(flip(sealed, field), OWNER)).rejects.toMatchObject({ name: 'CredentialCipherError', kind: 'refused' });
  });

  test('a record opened for another account or provider is refused', async () => {
    const cipher = fileCredentialCipher(keyPath());
    const sealed = await cipher.seal(SECRET, OWNER);
    await expect(cipher.open(sealed, { ...OWNER, accountId: 8 })).rejects.toBeInstanceOf(CredentialCipherError);
    await expect(cipher.open(sealed, { ...OWNER, provider: 'provider_b' })).rejects.toMatchObject({ kind: 'refused' });
  });

  test('a record sealed under another key file is refused', async () => {
    const sealed = await fileCredentialCipher(keyPath()).seal(SECRET, OWNER);
    const other = join(dir, 'other.key');
    await expect(fileCredentialCipher(other).open(sealed, OWNER)).rejects.toMatchObject({ kind: 'refused' });
  });

  test('records of another format or wrapping are malformed, not attempted', async () => {
    const cipher = fileCredentialCipher(keyPath());
    const sealed = await cipher.seal(SECRET, OWNER);
    await expect(cipher.open({ ...sealed, v: 2 as never }, OWNER)).rejects.toMatchObject({ kind: 'malformed' });
    await expect(cipher.open({ ...sealed, kek: 'kms' }, OWNER)).rejects.toMatchObject({ kind: 'malformed' });
    await expect(cipher.open({ ...sealed, iv: 'not base64!' }, OWNER)).rejects.toMatchObject({ kind: 'malformed' });
  });

  test('a key file of the wrong size is refused, and its content is not in the message', async () => {
    const path = join(dir, 'short.key');
    writeFileSync(path, 'tooshort', { mode: 0o600 });
    const failure = await fileCredentialCipher(path).seal(SECRET, OWNER).catch((e: Error) => e);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/32 bytes/);
    expect((failure as Error).message).not.toContain('tooshort');
    expect(readFileSync(path, 'utf8')).toBe('tooshort');
  });

  test('the local runtime keeps its key file under the data dir', async () => {
    const cipher = localCredentialCipher(dir);
    expect(cipher.kind).toBe('file');
    const sealed = await cipher.seal(SECRET, OWNER);
    expect(statSync(localConnectionKeyFile(dir)).size).toBe(32);
    expect(await fileCredentialCipher(localConnectionKeyFile(dir)).open(sealed, OWNER)).toBe(SECRET);
  });
});

describe('the KMS cipher', () => {
  const KEY_ARN = 'arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
  const kms = mockClient(KMSClient);
  beforeEach(() => kms.reset());

  /** A stand-in for KMS: hands out one data key, "wrapped" as an opaque blob, for one context only. */
  function fakeKms() {
    const dataKey = randomBytes(32);
    const blob = Buffer.concat([Buffer.from('kms-blob:'), randomBytes(16)]);
    kms.on(GenerateDataKeyCommand).callsFake(() => ({ Plaintext: Uint8Array.from(dataKey), CiphertextBlob: Uint8Array.from(blob), KeyId: KEY_ARN }));
    kms.on(DecryptCommand).callsFake((input: { CiphertextBlob: Uint8Array; EncryptionContext?: Record<string, string> }) => {
      const sameBlob = Buffer.from(input.CiphertextBlob).equals(blob);
      const sameContext = JSON.stringify(input.EncryptionContext) === JSON.stringify({ account_id: '7', provider: 'provider_a' });
      if (!sameBlob || !sameContext) throw new InvalidCiphertextException({ message: 'invalid', $metadata: {} });
      return { Plaintext: Uint8Array.from(dataKey), KeyId: KEY_ARN };
    });
    return { dataKey, blob };
  }

  test('GenerateDataKey (AES_256) with the owner as encryption context, sealing locally; Decrypt with the same', async () => {
    const { blob } = fakeKms();
    const cipher = kmsCredentialCipher({ keyId: KEY_ARN, region: 'us-east-1' });
    const sealed = await cipher.seal(SECRET, OWNER);
    expect(sealed).toMatchObject({ v: 1, alg: 'AES-256-GCM', kek: 'kms', encrypted_key: blob.toString('base64') });
    expect(kms.commandCalls(GenerateDataKeyCommand)[0]!.args[0].input).toEqual({
      KeyId: KEY_ARN,
      KeySpec: 'AES_256',
      EncryptionContext: { account_id: '7', provider: 'provider_a' },
    });
    // Only the data key goes to KMS; the credentials never do.
    expect(JSON.stringify(kms.calls().map((c) => c.args[0].input))).not.toContain('sk_live');

    expect(await cipher.open(sealed, OWNER)).toBe(SECRET);
    const decrypt = kms.commandCalls(DecryptCommand)[0]!.args[0].input;
    expect(decrypt).toMatchObject({ KeyId: KEY_ARN, EncryptionContext: { account_id: '7', provider: 'provider_a' } });
    expect(Buffer.from(decrypt.CiphertextBlob!).equals(blob)).toBe(true);
  });

  test('the plaintext data key is zeroed after use', async () => {
    const plaintext = new Uint8Array(randomBytes(32));
    kms.on(GenerateDataKeyCommand).resolves({ Plaintext: plaintext, CiphertextBlob: new Uint8Array([1, 2, 3]) });
    await kmsCredentialCipher({ keyId: KEY_ARN, region: 'us-east-1' }).seal(SECRET, OWNER);
    expect(plaintext.every((b) => b === 0)).toBe(true);
  });

  test('another context is refused by KMS and surfaces as a refusal', async () => {
    fakeKms();
    const cipher = kmsCredentialCipher({ keyId: KEY_ARN, region: 'us-east-1' });
    const sealed = await cipher.seal(SECRET, OWNER);
    await expect(cipher.open(sealed, { accountId: 8, provider: 'provider_a' })).rejects.toMatchObject({
      name: 'CredentialCipherError',
      kind: 'refused',
    });
  });

  test('altered ciphertext or tag is refused locally by GCM even though KMS unwraps the key', async () => {
    fakeKms();
    const cipher = kmsCredentialCipher({ keyId: KEY_ARN, region: 'us-east-1' });
    const sealed = await cipher.seal(SECRET, OWNER);
    await expect(cipher.open(flip(sealed, 'ciphertext'), OWNER)).rejects.toMatchObject({ kind: 'refused' });
    await expect(cipher.open(flip(sealed, 'tag'), OWNER)).rejects.toMatchObject({ kind: 'refused' });
    await expect(cipher.open(flip(sealed, 'encrypted_key'), OWNER)).rejects.toMatchObject({ kind: 'refused' });
  });

  test('a record carried over to another account is refused even if KMS were not asked (GCM additional data)', async () => {
    // KMS that ignores the context: the local layer still binds the record to its owner.
    const dataKey = randomBytes(32);
    kms.on(GenerateDataKeyCommand).callsFake(() => ({ Plaintext: Uint8Array.from(dataKey), CiphertextBlob: new Uint8Array([9]) }));
    kms.on(DecryptCommand).callsFake(() => ({ Plaintext: Uint8Array.from(dataKey) }));
    const cipher = kmsCredentialCipher({ keyId: KEY_ARN, region: 'us-east-1' });
    const sealed = await cipher.seal(SECRET, OWNER);
    await expect(cipher.open(sealed, { ...OWNER, accountId: 99 })).rejects.toMatchObject({ kind: 'refused' });
  });

  test('KMS outages are not mistaken for refusals', async () => {
    fakeKms();
    const cipher = kmsCredentialCipher({ keyId: KEY_ARN, region: 'us-east-1' });
    const sealed = await cipher.seal(SECRET, OWNER);
    kms.on(DecryptCommand).rejects(Object.assign(new Error('throttled'), { name: 'ThrottlingException' }));
    const failure = await cipher.open(sealed, OWNER).catch((e: Error) => e);
    expect(failure).not.toBeInstanceOf(CredentialCipherError);
    expect((failure as Error).name).toBe('ThrottlingException');
  });

  test('a record wrapped by the key file is not sent to KMS', async () => {
    const sealed = await fileCredentialCipher(join(dir, 'k')).seal(SECRET, OWNER);
    await expect(kmsCredentialCipher({ keyId: KEY_ARN, region: 'us-east-1' }).open(sealed, OWNER)).rejects.toMatchObject({ kind: 'malformed' });
    expect(kms.calls()).toHaveLength(0);
  });

  test('without a key it can be built (functions that never seal are given none) but fails when used, naming CONNECTION_KEY_ID', async () => {
    const cipher = kmsCredentialCipher({ keyId: undefined, region: 'us-east-1' });
    expect(cipher.kind).toBe('kms');
    await expect(cipher.seal(SECRET, OWNER)).rejects.toThrow(/CONNECTION_KEY_ID/);
    expect(kms.calls()).toHaveLength(0);
  });
});
