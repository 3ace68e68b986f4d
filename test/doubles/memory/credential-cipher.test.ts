/** The in-memory cipher the social use-case tests use refuses and rejects as the real cipher does. */
import { randomBytes } from 'node:crypto';
import { MemoryCredentialCipher } from '#test-doubles/memory/credential-cipher';
import { credentialCipherContract } from '#test-support/credential-cipher-contract';

const key = randomBytes(32);
credentialCipherContract({
  cipher: () => new MemoryCredentialCipher(key),
  sameKey: () => new MemoryCredentialCipher(key),
  otherKey: () => new MemoryCredentialCipher(),
});
