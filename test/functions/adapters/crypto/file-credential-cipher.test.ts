/** The local key-file cipher keeps the credential cipher's contract. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileCredentialCipher } from '#adapters/crypto/credential-cipher';
import { credentialCipherContract } from '#test-support/credential-cipher-contract';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rs-cipher-contract-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

credentialCipherContract({
  cipher: () => fileCredentialCipher(join(dir, 'connection.key')),
  sameKey: () => fileCredentialCipher(join(dir, 'connection.key')),
  otherKey: () => fileCredentialCipher(join(dir, 'other.key')),
});
