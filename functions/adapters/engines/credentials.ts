/**
 * Provider credentials for the hosted engines (docs/engines.md). The fal.ai key comes from, in order:
 *
 * - `FAL_KEY`: the environment (local runs, CI);
 * - `FAL_KEY_SECRET_ARN`: a Secrets Manager secret (on AWS); its SecretString is the key itself or a
 *   JSON object holding it under `FAL_KEY`, `falKey`, `key` or `apiKey`;
 * - `FAL_KEY_PARAMETER`: an SSM SecureString parameter, read through the AWS Parameters and Secrets
 *   Lambda Extension (its localhost HTTP endpoint; the project does not ship the SSM SDK client).
 *
 * A fetched key is kept by its provider (one per wiring: one fetch per cold start) for `FAL_KEY_CACHE_TTL_S` (default
 * 1 h, so a rotated key is picked up), concurrent callers share one fetch, and a key the provider
 * refused is dropped at once (`invalidate`). Bedrock needs nothing here: the SDK's default chain.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { DEFAULT_REGION } from '#functions/config';
import { EngineError } from '#ports/engine';
import { environment } from '#functions/config';

export interface SecretProvider {
  /** The secret; an EngineError (`provider_auth`, or `provider_unavailable` when the store is down). */
  get(): Promise<string>;
  /** Forgets the cached value, e.g. after the provider answered 401. */
  invalidate(): void;
}

export interface FalKeyProviderOptions {
  env?: NodeJS.ProcessEnv;
  ttlMs?: number;
  now?: () => number;
  /** Secrets Manager client factory (tests use aws-sdk-client-mock on the real client). */
  secretsManager?: (region: string) => SecretsManagerClient;
}

const DEFAULT_TTL_MS = 60 * 60 * 1000;
const KEY_FIELDS = ['FAL_KEY', 'falKey', 'fal_key', 'key', 'apiKey', 'api_key'];

const MISSING_MESSAGE =
  'No fal.ai API key is configured: set FAL_KEY (local), or FAL_KEY_SECRET_ARN / FAL_KEY_PARAMETER (AWS)';

function keyFromSecretString(value: string | undefined): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (text.startsWith('{')) {
    try {
      const parsed = JSON.parse(text) as Record<string, unknown>;
      for (const field of KEY_FIELDS) {
        const candidate = parsed[field];
        if (typeof candidate === 'string' && candidate.trim()) return candidate.trim();
      }
      return undefined;
    } catch {
      return text;
    }
  }
  return text;
}

function regionOfArn(arn: string): string | undefined {
  const parts = arn.split(':');
  return parts[0] === 'arn' && parts[3] ? parts[3] : undefined;
}

const AUTH_ERRORS = new Set([
  'AccessDeniedException',
  'ResourceNotFoundException',
  'DecryptionFailure',
  'InvalidRequestException',
  'InvalidParameterException',
  'UnrecognizedClientException',
  'ExpiredTokenException',
  'CredentialsProviderError',
]);

async function fromSecretsManager(arn: string, region: string, makeClient: (region: string) => SecretsManagerClient): Promise<string> {
  const client = makeClient(regionOfArn(arn) ?? region);
  try {
    const out = await client.send(new GetSecretValueCommand({ SecretId: arn }));
    const key = keyFromSecretString(out.SecretString);
    if (!key) {
      throw new EngineError('provider_auth', `The fal.ai key secret (FAL_KEY_SECRET_ARN) holds no key: store the key, or JSON with a "FAL_KEY" field`);
    }
    return key;
  } catch (error) {
    if (error instanceof EngineError) throw error;
    const name = (error as { name?: string }).name ?? 'Error';
    if (AUTH_ERRORS.has(name)) {
      throw new EngineError('provider_auth', `The fal.ai key could not be read from Secrets Manager (FAL_KEY_SECRET_ARN): ${name}`, { cause: error });
    }
    throw new EngineError('provider_unavailable', `Secrets Manager did not return the fal.ai key (${name}); retry shortly`, { cause: error });
  } finally {
    client.destroy();
  }
}

/** SSM through the Parameters and Secrets Lambda Extension (a localhost endpoint inside Lambda). */
async function fromSsmExtension(name: string, env: NodeJS.ProcessEnv): Promise<string> {
  const port = env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT || '2773';
  const url = `http://localhost:${port}/systemsmanager/parameters/get?name=${encodeURIComponent(name)}&withDecryption=true`;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { 'X-Aws-Parameters-Secrets-Token': env.AWS_SESSION_TOKEN ?? '' },
      signal: AbortSignal.timeout(5_000),
    });
  } catch (error) {
    throw new EngineError(
      'provider_auth',
      'The fal.ai key parameter (FAL_KEY_PARAMETER) could not be read: is the AWS Parameters and Secrets Lambda Extension attached?',
      { cause: error },
    );
  }
  const text = await response.text();
  if (!response.ok) {
    const code = response.status >= 500 ? 'provider_unavailable' : 'provider_auth';
    throw new EngineError(code, `The fal.ai key parameter (FAL_KEY_PARAMETER) could not be read: HTTP ${response.status}`);
  }
  let value: unknown;
  try {
    value = (JSON.parse(text) as { Parameter?: { Value?: unknown } }).Parameter?.Value;
  } catch {
    value = undefined;
  }
  const key = typeof value === 'string' ? keyFromSecretString(value) : undefined;
  if (!key) throw new EngineError('provider_auth', 'The fal.ai key parameter (FAL_KEY_PARAMETER) is empty');
  return key;
}

export function falKeyProvider(options: FalKeyProviderOptions = {}): SecretProvider {
  const env = options.env ?? environment();
  const ttlMs = options.ttlMs ?? (Number(env.FAL_KEY_CACHE_TTL_S) > 0 ? Number(env.FAL_KEY_CACHE_TTL_S) * 1000 : DEFAULT_TTL_MS);
  const now = options.now ?? Date.now;
  const makeClient = options.secretsManager ?? ((region: string) => new SecretsManagerClient({ region }));
  let cached: { value: string; expires: number } | undefined;
  let inFlight: Promise<string> | undefined;

  async function load(): Promise<string> {
    const direct = env.FAL_KEY?.trim();
    if (direct) return direct;
    const arn = env.FAL_KEY_SECRET_ARN?.trim();
    if (arn) return fromSecretsManager(arn, env.AWS_REGION || DEFAULT_REGION, makeClient);
    const parameter = env.FAL_KEY_PARAMETER?.trim();
    if (parameter) return fromSsmExtension(parameter, env);
    throw new EngineError('provider_auth', MISSING_MESSAGE);
  }

  return {
    async get() {
      if (cached && cached.expires > now()) return cached.value;
      inFlight ??= load()
        .then((value) => {
          cached = { value, expires: now() + ttlMs };
          return value;
        })
        .finally(() => {
          inFlight = undefined;
        });
      return inFlight;
    },
    invalidate() {
      cached = undefined;
    },
  };
}

/**
 * The fal.ai key provider of one wiring, made on first use: the engines it serves share one fetch and
 * one cached key (one fetch per cold start on AWS).
 */
export function sharedFalKey(options: FalKeyProviderOptions = {}): () => SecretProvider {
  let provider: SecretProvider | undefined;
  return () => (provider ??= falKeyProvider(options));
}
