/**
 * The media signing key: made once at deploy time into its secret (which starts as a random password),
 * kept on every later deploy so links already handed out stay valid, and answered as the public half
 * CloudFront trusts.
 */
import { createPublicKey, createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { mockClient } from 'aws-sdk-client-mock';
import { GetSecretValueCommand, PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { ensureSigningKey } from '#adapters/cloudfront/signing-key';
import { createHandler } from '#handlers/media-signing-key';

const SECRET = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:media-signing-key';
const secrets = mockClient(SecretsManagerClient);
const client = new SecretsManagerClient({ region: 'us-east-1' });
const publicOf = (privatePem: string) => createPublicKey(createPrivateKey(privatePem)).export({ type: 'spki', format: 'pem' });

beforeEach(() => secrets.reset());

test('the first time, a new RSA-2048 key goes into the secret and its public half is answered', async () => {
  secrets.on(GetSecretValueCommand).resolves({ SecretString: 'K8#xq-random-password-the-secret-started-with' });
  secrets.on(PutSecretValueCommand).resolves({});
  const publicPem = await ensureSigningKey(client, SECRET);

  const put = secrets.commandCalls(PutSecretValueCommand);
  expect(put).toHaveLength(1);
  expect(put[0]!.args[0].input.SecretId).toBe(SECRET);
  const stored = put[0]!.args[0].input.SecretString!;
  expect(createPrivateKey(stored).asymmetricKeyDetails?.modulusLength).toBe(2048);
  expect(publicPem).toBe(publicOf(stored));
  expect(publicPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
});

test('a later deploy keeps the stored key: same public half, nothing written', async () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  secrets.on(GetSecretValueCommand).resolves({ SecretString: privateKey });
  expect(await ensureSigningKey(client, SECRET)).toBe(publicOf(privateKey));
  expect(secrets.commandCalls(PutSecretValueCommand)).toHaveLength(0);
});

test('a stored key CloudFront would not take (not RSA 2048) is replaced', async () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  secrets.on(GetSecretValueCommand).resolves({ SecretString: privateKey });
  secrets.on(PutSecretValueCommand).resolves({});
  await ensureSigningKey(client, SECRET);
  expect(secrets.commandCalls(PutSecretValueCommand)).toHaveLength(1);
});

describe('the custom resource', () => {
  const event = (type: 'Create' | 'Update' | 'Delete') =>
    ({ RequestType: type, PhysicalResourceId: SECRET, ResourceProperties: { ServiceToken: 'x', SecretId: SECRET } }) as unknown as CloudFormationCustomResourceEvent;

  test('create answers the public key as its PublicKey attribute, the secret as its id', async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: 'random' });
    secrets.on(PutSecretValueCommand).resolves({});
    const answer = await createHandler(client)(event('Create'));
    expect(answer.PhysicalResourceId).toBe(SECRET);
    expect(answer.Data?.PublicKey).toBe(publicOf(secrets.commandCalls(PutSecretValueCommand)[0]!.args[0].input.SecretString!));
  });

  test("delete touches nothing: the secret is the stack's own resource", async () => {
    expect(await createHandler(client)(event('Delete'))).toEqual({ PhysicalResourceId: SECRET });
    expect(secrets.calls()).toHaveLength(0);
  });
});
