/**
 * Where the fal.ai key comes from: the environment locally; Secrets Manager (aws-sdk-client-mock)
 * or SSM through the Lambda extension's localhost endpoint (a loopback double) on AWS. Cached per
 * process with a TTL; missing or refused → provider_auth.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { falKeyProvider } from '#adapters/engines/credentials';
import { EngineError } from '#ports/engine';

const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:fal-key-AbCdEf';
const secrets = mockClient(SecretsManagerClient);

beforeEach(() => {
  secrets.reset();
});

afterAll(() => {
  secrets.restore();
});

async function failure(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof EngineError)) throw new Error(`expected an EngineError, got ${String(error)}`);
  return error;
}

describe('environment', () => {
  it('FAL_KEY is used as is', async () => {
    await expect(falKeyProvider({ env: { FAL_KEY: ' key-123 ' } }).get()).resolves.toBe('key-123');
  });

  it('no source configured is provider_auth naming what to set', async () => {
    const error = await failure(falKeyProvider({ env: {} }).get());
    expect(error).toMatchObject({ code: 'provider_auth', retryable: false });
    expect(error.message).toContain('FAL_KEY');
    expect(error.message).toContain('FAL_KEY_SECRET_ARN');
  });
});

describe('Secrets Manager (FAL_KEY_SECRET_ARN)', () => {
  it('reads the secret once, in the ARN\'s region, and caches it until the TTL passes', async () => {
    secrets.on(GetSecretValueCommand, { SecretId: ARN }).resolves({ SecretString: 'sm-key' });
    const regions: string[] = [];
    let now = 1_000;
    const provider = falKeyProvider({
      env: { FAL_KEY_SECRET_ARN: ARN },
      ttlMs: 60_000,
      now: () => now,
      secretsManager: (region) => {
        regions.push(region);
        return new SecretsManagerClient({ region });
      },
    });
    await expect(provider.get()).resolves.toBe('sm-key');
    await expect(provider.get()).resolves.toBe('sm-key');
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(1);
    expect(regions).toEqual(['eu-west-1']);
    now += 61_000;
    await provider.get();
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('concurrent first calls share one fetch; invalidate forces another', async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: 'sm-key' });
    const provider = falKeyProvider({ env: { FAL_KEY_SECRET_ARN: ARN } });
    await Promise.all([provider.get(), provider.get(), provider.get()]);
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(1);
    provider.invalidate();
    await provider.get();
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('a JSON secret holding FAL_KEY works', async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: JSON.stringify({ FAL_KEY: 'json-key', other: 'x' }) });
    await expect(falKeyProvider({ env: { FAL_KEY_SECRET_ARN: ARN } }).get()).resolves.toBe('json-key');
  });

  it('an empty secret is provider_auth', async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: JSON.stringify({ unrelated: 'x' }) });
    await expect(falKeyProvider({ env: { FAL_KEY_SECRET_ARN: ARN } }).get()).rejects.toMatchObject({ code: 'provider_auth' });
  });

  it('AccessDenied is provider_auth; throttling is provider_unavailable and not cached', async () => {
    secrets.on(GetSecretValueCommand).rejectsOnce(Object.assign(new Error('denied'), { name: 'AccessDeniedException' }));
    const provider = falKeyProvider({ env: { FAL_KEY_SECRET_ARN: ARN } });
    await expect(provider.get()).rejects.toMatchObject({ code: 'provider_auth' });

    secrets.reset();
    secrets.on(GetSecretValueCommand).rejectsOnce(Object.assign(new Error('slow down'), { name: 'ThrottlingException' })).resolves({ SecretString: 'ok' });
    await expect(provider.get()).rejects.toMatchObject({ code: 'provider_unavailable', retryable: true });
    await expect(provider.get()).resolves.toBe('ok');
  });

  it('FAL_KEY wins over the secret (local runs)', async () => {
    await expect(falKeyProvider({ env: { FAL_KEY: 'local', FAL_KEY_SECRET_ARN: ARN } }).get()).resolves.toBe('local');
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(0);
  });
});

describe('SSM (FAL_KEY_PARAMETER) through the Parameters and Secrets Lambda Extension', () => {
  let server: Server;
  let port: number;
  let seen: Array<{ url: string; headers: IncomingHttpHeaders }>;
  let answer: { status: number; body: string };

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ url: req.url ?? '', headers: req.headers });
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  beforeEach(() => {
    seen = [];
  });

  const env = () => ({ FAL_KEY_PARAMETER: '/reaction-studio/fal-key', PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: String(port), AWS_SESSION_TOKEN: 'session-token' });

  it('reads the decrypted parameter with the session token', async () => {
    answer = { status: 200, body: JSON.stringify({ Parameter: { Name: '/reaction-studio/fal-key', Type: 'SecureString', Value: 'ssm-key' } }) };
    await expect(falKeyProvider({ env: env() }).get()).resolves.toBe('ssm-key');
    expect(seen[0]!.url).toBe('/systemsmanager/parameters/get?name=%2Freaction-studio%2Ffal-key&withDecryption=true');
    expect(seen[0]!.headers['x-aws-parameters-secrets-token']).toBe('session-token');
  });

  it('a refused read is provider_auth', async () => {
    answer = { status: 400, body: '{"message":"not found"}' };
    await expect(falKeyProvider({ env: env() }).get()).rejects.toMatchObject({ code: 'provider_auth' });
  });
});
