/**
 * What a runtime is configured with. On Lambda it comes from the function's environment, read once by
 * functions/wiring/lambda.ts (`settingsFromEnv`); the local stack knows its own table, bucket and
 * endpoints and builds it directly.
 */
import type { ProviderName } from '#domain/social';

export interface Settings {
  region: string;
  tableName: string;
  bucketName: string;
  /** DynamoDB Local's endpoint locally; unset on AWS. */
  dynamoEndpoint?: string;
  /** s3rver's endpoint locally; unset on AWS. */
  s3Endpoint?: string;
  /**
   * Requests per rolling minute per account (the contract's 120). A local testing setting: load and
   * scale runs raise it to fill an account quickly; deployed stacks do not set it.
   */
  rateLimitPerMinute: number;
  /** Seconds a preview waits for a decision; a local testing setting (PREVIEW_EXPIRY_SECONDS), 30 days otherwise. */
  previewWaitS?: number;
  /** The KMS key sealing provider credentials (CONNECTION_KEY_ID): set only for the functions that need it. */
  connectionKeyId?: string;
  /**
   * Where the social providers' APIs are when not at their public addresses (PROVIDER_A_BASE_URL,
   * PROVIDER_B_BASE_URL); locally, the loopback sandboxes.
   */
  socialBaseUrls?: Partial<Record<ProviderName, string>>;
  /**
   * The largest multipart body the API takes inline (INLINE_UPLOAD_MAX_BYTES): set by the CDK stack for
   * the API functions, which a request reaches only up to what API Gateway and Lambda carry; unset
   * locally, where the route table's sizes hold. Past it a file goes through POST /uploads.
   */
  inlineUploadMaxBytes?: number;
  /**
   * Where playback links point on AWS (MEDIA_CDN_DOMAIN, MEDIA_CDN_KEY_PAIR_ID,
   * MEDIA_CDN_PRIVATE_KEY_SECRET): CloudFront signed URLs, which outlive the function's temporary
   * credentials. Unset locally, where s3rver's presigned URLs serve.
   */
  mediaCdn?: MediaCdnSettings;
}

export interface MediaCdnSettings {
  domain: string;
  keyPairId: string;
  /** The Secrets Manager secret holding the PEM private key that signs. */
  privateKeySecret: string;
}

export const DEFAULT_REGION = 'us-east-1';
export const API_REQUESTS_PER_MINUTE = 120;

type Environment = Record<string, string | undefined>;

export function settingsFromEnv(env: Environment): Settings {
  const required = (name: string) => {
    const value = env[name];
    if (!value) throw new Error(`environment variable ${name} is not set`);
    return value;
  };
  return {
    region: env.AWS_REGION || DEFAULT_REGION,
    tableName: required('TABLE_NAME'),
    bucketName: required('BUCKET_NAME'),
    dynamoEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    s3Endpoint: env.S3_ENDPOINT || undefined,
    rateLimitPerMinute: rateLimitPerMinuteOf(env.RATE_LIMIT_PER_MINUTE),
    connectionKeyId: env.CONNECTION_KEY_ID || undefined,
    socialBaseUrls: socialBaseUrlsFromEnv(env),
    inlineUploadMaxBytes: positiveIntegerOf('INLINE_UPLOAD_MAX_BYTES', env.INLINE_UPLOAD_MAX_BYTES),
    mediaCdn: mediaCdnFromEnv(env),
  };
}

export const MEDIA_CDN_ENV = {
  domain: 'MEDIA_CDN_DOMAIN',
  keyPairId: 'MEDIA_CDN_KEY_PAIR_ID',
  privateKeySecret: 'MEDIA_CDN_PRIVATE_KEY_SECRET',
} as const satisfies Record<keyof MediaCdnSettings, string>;

/** All three variables or none: half a configuration would sign links nobody can verify. */
function mediaCdnFromEnv(env: Environment): MediaCdnSettings | undefined {
  const values = Object.entries(MEDIA_CDN_ENV).map(([field, name]) => [field, env[name] || undefined] as const);
  const set = values.filter(([, value]) => value !== undefined);
  if (set.length === 0) return undefined;
  if (set.length < values.length) throw new Error(`set all of ${Object.values(MEDIA_CDN_ENV).join(', ')} or none`);
  return Object.fromEntries(values) as unknown as MediaCdnSettings;
}

function positiveIntegerOf(name: string, raw: string | undefined): number | undefined {
  if (!raw) return undefined;
  if (!/^[1-9][0-9]{0,14}$/.test(raw)) throw new Error(`${name} must be a positive integer, not ${raw}`);
  return Number(raw);
}

/** PROVIDER_A_BASE_URL / PROVIDER_B_BASE_URL, those that are set. */
export function socialBaseUrlsFromEnv(env: Environment): Partial<Record<ProviderName, string>> {
  const urls: Partial<Record<ProviderName, string>> = {};
  if (env.PROVIDER_A_BASE_URL) urls.provider_a = env.PROVIDER_A_BASE_URL;
  if (env.PROVIDER_B_BASE_URL) urls.provider_b = env.PROVIDER_B_BASE_URL;
  return urls;
}

/** RATE_LIMIT_PER_MINUTE as a number; unset is the contract's limit. */
export function rateLimitPerMinuteOf(raw: string | undefined): number {
  if (!raw) return API_REQUESTS_PER_MINUTE;
  if (!/^[1-9][0-9]{0,8}$/.test(raw)) throw new Error(`RATE_LIMIT_PER_MINUTE must be a positive integer, not ${raw}`);
  return Number(raw);
}

/** Environment read through one helper that names what is missing. */
export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`environment variable ${name} is not set`);
  return value;
}

export function optionalEnv(name: string): string | undefined {
  const value = process.env[name];
  return value ? value : undefined;
}
