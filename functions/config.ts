/**
 * What a runtime is configured with. On Lambda it comes from the function's environment, read once by
 * functions/wiring/lambda.ts (`settingsFromEnv`); the local stack knows its own table, bucket and
 * endpoints and builds it directly.
 */
// zod/mini: the classic API with its locales is about 450 KB in every bundle that reads the config.
import * as z from 'zod/mini';
import type { ProviderName } from '#domain/social';
import { isPaidPlan, isPlanName, PLAN_NAMES, type PlanName } from '#domain/plans';

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
  /** The providers' sandboxes, where test keys' social calls go (domain/test-mode): the local stack's; none on AWS. */
  socialSandboxUrls?: Partial<Record<ProviderName, string>>;
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
  /**
   * The sender of the service's mails (MAIL_FROM), an identity SES has verified: set by the stack for
   * the functions that mail (FunctionNeeds.mail) when the deployment names one (`-c mailFrom=`).
   */
  mailFrom?: string;
  /** The studio's address (STUDIO_URL), where mailed links point; set with MAIL_FROM. */
  studioUrl?: string;
  /** Where live-update sockets connect (UPDATES_URL): set by the stack for the function that issues their tickets. */
  updatesUrl?: string;
  /** The API's address for hosted engines' webhooks (PROVIDER_CALLBACK_URL): set by the stack for the render function (Dependencies.providerCallbackUrl). */
  providerCallbackUrl?: string;
  /**
   * Stripe, for paid plans (STRIPE_SECRET_ID, STRIPE_PRICE_IDS): set by the stack for the billing
   * function when a Stripe secret is configured; unset, paid plans cannot be taken (docs/billing.md).
   */
  stripe?: StripeSettings;
}

interface StripeSettings {
  /** The Secrets Manager secret (name or ARN) holding `{"secret_key": "sk_…", "webhook_secret": "whsec_…"}`. */
  secretId: string;
  /** The Stripe price of each paid plan. */
  prices: Partial<Record<PlanName, string>>;
}

export interface MediaCdnSettings {
  domain: string;
  keyPairId: string;
  /** The Secrets Manager secret holding the PEM private key that signs. */
  privateKeySecret: string;
}

export const DEFAULT_REGION = 'us-east-1';
export const API_REQUESTS_PER_MINUTE = 120;

export type Environment = Record<string, string | undefined>;

/**
 * This process's environment: the one read of `process.env` for the code under functions/, on Lambda
 * and in the local twin alike (a lint rule keeps every other module from reading it). Modules that
 * take settings from it accept an `env` to read instead, so tests pass their own.
 */
export function environment(): Environment {
  return process.env;
}

/** Unset and empty are the same: CDK and shells write empty strings for "no value". */
const unsetIfEmpty = (value: unknown) => (value === '' ? undefined : value);
const unsetIfEmptyStep = z.transform(unsetIfEmpty);
const optional = <T extends z.ZodMiniType>(schema: T) => z.pipe(unsetIfEmptyStep, z.optional(schema));
const required = () => z.pipe(unsetIfEmptyStep, z.string({ error: 'is not set' }));
const url = () => z.url({ error: 'must be a URL' });
const positiveInteger = (digits: number) =>
  z.pipe(z.string().check(z.regex(new RegExp(`^[1-9][0-9]{0,${digits - 1}}$`), 'must be a positive integer')), z.transform(Number));

/**
 * The variables a function reads at cold start, checked together: a missing or malformed one stops
 * the function's first invocation with its name, instead of a wrong value surfacing in some request.
 */
const LAMBDA_ENVIRONMENT = z.object({
  AWS_REGION: optional(z.string()),
  TABLE_NAME: required(),
  BUCKET_NAME: required(),
  DYNAMODB_ENDPOINT: optional(url()),
  S3_ENDPOINT: optional(url()),
  RATE_LIMIT_PER_MINUTE: optional(positiveInteger(9)),
  CONNECTION_KEY_ID: optional(z.string()),
  PROVIDER_A_BASE_URL: optional(url()),
  PROVIDER_B_BASE_URL: optional(url()),
  INLINE_UPLOAD_MAX_BYTES: optional(positiveInteger(15)),
  MAIL_FROM: optional(z.email()),
  STUDIO_URL: optional(z.url({ protocol: /^https?$/ })),
  UPDATES_URL: optional(z.url({ protocol: /^wss?$/ })),
  PROVIDER_CALLBACK_URL: optional(z.url({ protocol: /^https?$/ })),
  STRIPE_SECRET_ID: optional(z.string()),
  STRIPE_PRICE_IDS: optional(z.string()),
});

/** `environment variable RATE_LIMIT_PER_MINUTE must be a positive integer, not 12x`. */
function environmentError(error: z.core.$ZodError, env: Environment): Error {
  const problems = error.issues.map((issue) => {
    const name = String(issue.path[0]);
    const raw = env[name];
    return `environment variable ${name} ${issue.message}${raw ? `, not ${raw}` : ''}`;
  });
  return new Error(problems.join('; '));
}

export function settingsFromEnv(env: Environment): Settings {
  const parsed = LAMBDA_ENVIRONMENT.safeParse(env);
  if (!parsed.success) throw environmentError(parsed.error, env);
  const vars = parsed.data;
  return {
    region: vars.AWS_REGION ?? DEFAULT_REGION,
    tableName: vars.TABLE_NAME,
    bucketName: vars.BUCKET_NAME,
    dynamoEndpoint: vars.DYNAMODB_ENDPOINT,
    s3Endpoint: vars.S3_ENDPOINT,
    rateLimitPerMinute: vars.RATE_LIMIT_PER_MINUTE ?? API_REQUESTS_PER_MINUTE,
    connectionKeyId: vars.CONNECTION_KEY_ID,
    socialBaseUrls: socialBaseUrlsFromEnv(env),
    inlineUploadMaxBytes: vars.INLINE_UPLOAD_MAX_BYTES,
    mediaCdn: mediaCdnFromEnv(env),
    mailFrom: vars.MAIL_FROM,
    studioUrl: vars.STUDIO_URL,
    updatesUrl: vars.UPDATES_URL,
    providerCallbackUrl: vars.PROVIDER_CALLBACK_URL,
    stripe: stripeFromEnv(vars.STRIPE_SECRET_ID, vars.STRIPE_PRICE_IDS),
  };
}

/** Where the live-update pusher posts (UPDATES_ENDPOINT: the WebSocket API stage's https address); the client signs with the role's credentials. */
export function updatesPusherSettings(env: Environment): { endpoint: string } {
  const parsed = z.object({ UPDATES_ENDPOINT: z.pipe(unsetIfEmptyStep, z.url({ protocol: /^https$/, error: 'must be an https URL' })) }).safeParse(env);
  if (!parsed.success) throw environmentError(parsed.error, env);
  return { endpoint: parsed.data.UPDATES_ENDPOINT };
}

/** The variables a mailing function reads (lib/cloud/service-function.ts sets them). */
export const MAIL_ENV = { from: 'MAIL_FROM', studioUrl: 'STUDIO_URL' } as const;

export const STRIPE_ENV = { secretId: 'STRIPE_SECRET_ID', prices: 'STRIPE_PRICE_IDS' } as const;

/** Both or neither: a key without prices could take no plan, prices without a key charge nobody. */
function stripeFromEnv(secretId: string | undefined, prices: string | undefined): StripeSettings | undefined {
  if (secretId === undefined && prices === undefined) return undefined;
  if (secretId === undefined || prices === undefined) throw new Error(`set both ${STRIPE_ENV.secretId} and ${STRIPE_ENV.prices}, or neither`);
  return { secretId, prices: parseStripePrices(prices, STRIPE_ENV.prices) };
}

/**
 * `starter=price_1,pro=price_2,business=price_3`: every paid plan once, nothing else. `source` names
 * where the text came from (a variable, a CDK context key) for the error.
 */
export function parseStripePrices(text: string, source: string): Partial<Record<PlanName, string>> {
  const prices: Partial<Record<PlanName, string>> = {};
  for (const pair of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const match = /^([a-z]+)=(price_[A-Za-z0-9_]+)$/.exec(pair);
    if (!match || !isPlanName(match[1]!) || !isPaidPlan(match[1]) || prices[match[1]]) {
      throw new Error(`${source}: "${pair}" is not <paid plan>=<Stripe price id> (each paid plan once)`);
    }
    prices[match[1]] = match[2]!;
  }
  const missing = PLAN_NAMES.filter((plan) => isPaidPlan(plan) && !prices[plan]);
  if (missing.length > 0) throw new Error(`${source} names no price for ${missing.join(', ')}`);
  return prices;
}

/** The public API's base URL, which the MCP function calls with the caller's key (set by lib/cloud/mcp-endpoint.ts). */
export const API_BASE_URL_ENV = 'API_BASE_URL';

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


/** PROVIDER_A_BASE_URL / PROVIDER_B_BASE_URL, those that are set. */
export function socialBaseUrlsFromEnv(env: Environment): Partial<Record<ProviderName, string>> {
  const urls: Partial<Record<ProviderName, string>> = {};
  if (env.PROVIDER_A_BASE_URL) urls.provider_a = env.PROVIDER_A_BASE_URL;
  if (env.PROVIDER_B_BASE_URL) urls.provider_b = env.PROVIDER_B_BASE_URL;
  return urls;
}

/** Environment read through one helper that names what is missing. */
export function requiredEnv(name: string): string {
  const value = environment()[name];
  if (!value) throw new Error(`environment variable ${name} is not set`);
  return value;
}

export function optionalEnv(name: string): string | undefined {
  const value = environment()[name];
  return value ? value : undefined;
}
