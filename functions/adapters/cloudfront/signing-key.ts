/**
 * The key pair CloudFront verifies playback links with. The private half lives only in a Secrets
 * Manager secret (the stack creates the secret, this fills it once); the public half goes to
 * CloudFront as the distribution's trusted key. Run again (a stack update), it keeps the stored key,
 * so links already handed out stay valid.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { GetSecretValueCommand, PutSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

/** The custom resource's attribute holding the public key (the stack reads it by this name). */
export const PUBLIC_KEY_ATTRIBUTE = 'PublicKey';

/** CloudFront trusted keys are RSA 2048 (its documented requirement for signed URLs). */
const MODULUS_BITS = 2048;

/** The public key (PEM) whose private half the secret holds, making and storing one the first time. */
export async function ensureSigningKey(secrets: SecretsManagerClient, secretId: string): Promise<string> {
  const { SecretString } = await secrets.send(new GetSecretValueCommand({ SecretId: secretId }));
  const stored = signingKeyOf(SecretString);
  if (stored) return publicPem(stored);
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: MODULUS_BITS });
  await secrets.send(new PutSecretValueCommand({ SecretId: secretId, SecretString: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string }));
  return publicPem(privateKey);
}

/** The stored RSA-2048 private key, or undefined for what the secret starts with (a random password). */
function signingKeyOf(text: string | undefined): KeyObject | undefined {
  if (!text?.includes('PRIVATE KEY')) return undefined;
  const key = createPrivateKey(text);
  return key.asymmetricKeyType === 'rsa' && key.asymmetricKeyDetails?.modulusLength === MODULUS_BITS ? key : undefined;
}

const publicPem = (privateKey: KeyObject) => createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }) as string;
