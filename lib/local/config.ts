/**
 * The local twin's configuration: the one read of `process.env` under lib/local and for `npm start`
 * (a lint rule keeps every other module from reading it). The functions' own variables (engines,
 * ffmpeg, LOG_LEVEL) are read by functions/config.ts, as on Lambda.
 */
import { z } from 'zod';
import { PREVIEW_WAIT_MAX_S } from '#domain/preview-wait';
import { API_REQUESTS_PER_MINUTE, parseStripePrices, type Environment } from '#functions/config';
import type { LocalBilling } from './billing';

/** This process's environment, for the local modules that take an `env` to read (tests pass their own). */
export function localEnvironment(): Environment {
  return process.env;
}

const unsetIfEmpty = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const wholeNumber = (min: number, max: number) =>
  z.preprocess(unsetIfEmpty, z.optional(z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).pipe(z.number().min(min).max(max))));

const SERVE_ENVIRONMENT = z.object({
  PORT: wholeNumber(0, 65_535),
  DATA_DIR: z.preprocess(unsetIfEmpty, z.optional(z.string())),
  // Testing settings: load runs raise the rate limit; a preview that expires in seconds tries expiry.
  RATE_LIMIT_PER_MINUTE: wholeNumber(1, 999_999_999),
  PREVIEW_EXPIRY_SECONDS: wholeNumber(1, Number.MAX_SAFE_INTEGER),
  // Paid plans: at once and free (local), through the Stripe sandbox, or through Stripe itself (docs/billing.md).
  BILLING: z.preprocess(unsetIfEmpty, z.optional(z.enum(['local', 'stripe-sandbox', 'stripe'], { error: 'must be local, stripe-sandbox or stripe' }))),
  STRIPE_SECRET_KEY: z.preprocess(unsetIfEmpty, z.optional(z.string().regex(/^(sk|rk)_/, 'must be a Stripe secret key (sk_…)'))),
  STRIPE_WEBHOOK_SECRET: z.preprocess(unsetIfEmpty, z.optional(z.string().regex(/^whsec_/, 'must be a webhook signing secret (whsec_…)'))),
  STRIPE_PRICE_IDS: z.preprocess(unsetIfEmpty, z.optional(z.string())),
  STRIPE_API_URL: z.preprocess(unsetIfEmpty, z.optional(z.url())),
  // The render function's concurrency cap, and whether a step over it is refused as Lambda refuses one
  // (a throttle the state machine retries) instead of queueing for a slot (docs/aws.md, Bursts).
  LOCAL_RENDER_CONCURRENCY: wholeNumber(1, 64),
  LOCAL_LAMBDA_THROTTLE: z.preprocess(unsetIfEmpty, z.optional(z.enum(['0', '1'], { error: 'must be 0 or 1' }))),
  // The table the stack runs on in its DynamoDB Local: a restored one (npm run restore; docs/aws.md).
  TABLE_NAME: z.preprocess(unsetIfEmpty, z.optional(z.string().regex(/^[A-Za-z0-9_.-]{3,255}$/, 'must be a DynamoDB table name (3 to 255 letters, digits, _ . -)'))),
});

export interface ServeConfig {
  port: number;
  /** Unset: the default data dir (runtime-state.ts). */
  dataDir?: string;
  rateLimitPerMinute: number;
  previewWaitS: number;
  billing: LocalBilling;
  /** Render steps at once; unset: the runner's default. */
  renderConcurrency?: number;
  /** Over the cap, refuse with Lambda's throttle instead of queueing. */
  lambdaThrottle: boolean;
  /** Unset: the local table's usual name (runtime-state.ts LOCAL_TABLE). */
  tableName?: string;
}

/** `npm start`'s settings, checked before anything starts: a wrong one stops it with its name. */
export function serveConfig(env: Environment = localEnvironment()): ServeConfig {
  const parsed = SERVE_ENVIRONMENT.safeParse(env);
  if (!parsed.success) {
    throw new Error(parsed.error.issues.map((issue) => `environment variable ${String(issue.path[0])} ${issue.message}, not ${env[String(issue.path[0])]}`).join('; '));
  }
  const vars = parsed.data;
  return {
    port: vars.PORT ?? 3000,
    dataDir: vars.DATA_DIR,
    rateLimitPerMinute: vars.RATE_LIMIT_PER_MINUTE ?? API_REQUESTS_PER_MINUTE,
    // Never past the 30 days the state machine's deadline is computed for.
    previewWaitS: Math.min(vars.PREVIEW_EXPIRY_SECONDS ?? PREVIEW_WAIT_MAX_S, PREVIEW_WAIT_MAX_S),
    billing: billingOf(vars),
    renderConcurrency: vars.LOCAL_RENDER_CONCURRENCY,
    lambdaThrottle: vars.LOCAL_LAMBDA_THROTTLE === '1',
    tableName: vars.TABLE_NAME,
  };
}

/** BILLING=stripe needs its key, signing secret and prices; the other two need nothing. */
function billingOf(vars: z.infer<typeof SERVE_ENVIRONMENT>): LocalBilling {
  if (vars.BILLING !== 'stripe') return { kind: vars.BILLING ?? 'local' };
  const missing = (['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_IDS'] as const).filter((name) => vars[name] === undefined);
  if (missing.length > 0) throw new Error(`BILLING=stripe needs ${missing.join(', ')}`);
  return {
    kind: 'stripe',
    secretKey: vars.STRIPE_SECRET_KEY!,
    webhookSecret: vars.STRIPE_WEBHOOK_SECRET!,
    prices: parseStripePrices(vars.STRIPE_PRICE_IDS!, 'environment variable STRIPE_PRICE_IDS'),
    apiUrl: vars.STRIPE_API_URL,
  };
}
