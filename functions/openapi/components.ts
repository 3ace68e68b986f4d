/**
 * The parts of the document every operation shares: the credential, the paging and window
 * parameters, and the headers the middlewares put on answers.
 */
import { ANALYTICS_DAYS } from '#domain/analytics';
import { SOCIAL_PROVIDERS } from '#domain/social';
import { PAGE_MAX, PER_PAGE_DEFAULT, PER_PAGE_MAX } from '#http/params';

export const SECURITY_SCHEME = 'apiKey';
export const SESSION_SCHEME = 'sessionCookie';

export const securitySchemes = {
  [SECURITY_SCHEME]: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'rsk_<43 characters>',
    description:
      'An API key: `Authorization: Bearer rsk_...`. Keys carry scopes: GETs need `read`, other methods `write`, publishing `publish`. ' +
      'A missing, malformed, unknown or revoked key is 401; a missing scope 403.',
  },
  [SESSION_SCHEME]: {
    type: 'apiKey',
    in: 'cookie',
    name: 'rs_session',
    description:
      'The studio\'s session, set by POST /auth/signup and /auth/login: every scope of its account. A change (any method but GET and HEAD) made with it ' +
      'also sends `X-CSRF-Token` (the `csrf_token` of GET /auth/session) and, if any, an `Origin` of this API: otherwise 403. With a bearer key too, the key counts. ' +
      'An ended, revoked or unknown session is 401.',
  },
} as const;

const ref = (kind: 'parameters' | 'headers', name: string) => ({ $ref: `#/components/${kind}/${name}` });

export const parameters = {
  Page: {
    name: 'page',
    in: 'query',
    description: 'Page number; anything but an integer in range is 400',
    schema: { type: 'integer', minimum: 1, maximum: PAGE_MAX, default: 1 },
  },
  PerPage: {
    name: 'per_page',
    in: 'query',
    description: 'Items per page; anything but an integer in range is 400',
    schema: { type: 'integer', minimum: 1, maximum: PER_PAGE_MAX, default: PER_PAGE_DEFAULT },
  },
  Limit: {
    name: 'limit',
    in: 'query',
    description: 'Items in this slice; anything but an integer in range is 400',
    schema: { type: 'integer', minimum: 1, maximum: PER_PAGE_MAX, default: PER_PAGE_DEFAULT },
  },
  Before: {
    name: 'before',
    in: 'query',
    description: "Only records older than this one: the previous slice's `meta.next_before`",
    schema: { type: 'integer', minimum: 1 },
  },
  After: {
    name: 'after',
    in: 'query',
    description: "Only records after this one, oldest first: the previous answer's `meta.next_after`",
    schema: { type: 'string', pattern: '^evt_[0-9a-f]{32}$' },
  },
  Days: {
    name: 'days',
    in: 'query',
    description: 'The window, in UTC calendar days ending today',
    schema: { type: 'integer', minimum: ANALYTICS_DAYS.min, maximum: ANALYTICS_DAYS.max, default: ANALYTICS_DAYS.default },
  },
  DryRun: {
    name: 'dry_run',
    in: 'query',
    description:
      '`true`: run every check of the request (fields, what it names, any reference upload, the allowance) and answer 200 with what it would take, ' +
      'or the same error the request would get; nothing is made, reserved or claimed, and the request is not counted against the rate limit (its headers are still sent, and an account over the limit still gets 429). ' +
      '`false` (the default) does it; anything else is 400',
    schema: { type: 'boolean', default: false },
  },
  Id: {
    name: 'id',
    in: 'path',
    required: true,
    description: 'A record id (a positive integer; anything else is 400, another account\'s record 404)',
    schema: { type: 'integer', minimum: 1 },
  },
  Provider: {
    name: 'provider',
    in: 'path',
    required: true,
    description: 'The scheduling provider',
    schema: { type: 'string', enum: [...SOCIAL_PROVIDERS] },
  },
  WebhookId: {
    name: 'webhook_id',
    in: 'path',
    required: true,
    description: 'A webhook endpoint id as POST /webhooks answered it (`wh_...`; anything else is 400, another account\'s 404)',
    schema: { type: 'string', pattern: '^wh_[0-9a-f]{20}$' },
  },
  MusicId: {
    name: 'music_id',
    in: 'path',
    required: true,
    description: 'A track id as GET /music lists it: a built-in slug (`sunny-pop`) or one of the account\'s own (`t12`); anything else of that shape, or another account\'s track, is 404',
    schema: { type: 'string', pattern: '^[a-z0-9-]{1,40}$' },
  },
  CallbackTicket: {
    name: 'ticket',
    in: 'path',
    required: true,
    description: 'What the service put in the webhook URL it gave the provider: the job and a secret drawn for its round. Any other value is 404',
    schema: { type: 'string', pattern: '^[1-9][0-9]{0,14}\\.[1-9][0-9]{0,14}\\.[A-Za-z0-9_-]{43}$' },
  },
  DeliveryId: {
    name: 'delivery_id',
    in: 'path',
    required: true,
    description: 'A delivery id from GET /webhooks/{webhook_id}/deliveries (`whd_...`)',
    schema: { type: 'string', pattern: '^whd_[0-9a-f]{24}$' },
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'A repeat with the same key and the same request returns the first answer again (the same record, nothing created or reserved twice), ' +
      'with `Idempotent-Replayed: true`; the same key with a different request, or while the first is still running, is 409. ' +
      'Only a success is kept: after a refusal the same key may be sent again. Keys are the account\'s own and kept 24 hours.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'The `ETag` of an answer you hold: while the answer is still the same, it is 304 with no body (poll a job this way).',
    schema: { type: 'string', maxLength: 1024 },
  },
} as const;

export const headers = {
  RequestId: { description: 'The request id, on every answer: quote it to support', required: true, schema: { type: 'string' } },
  ApiRevision: {
    description: "The API's revision that answered, on every answer: the date of its newest changelog entry (the major version is in the path)",
    required: true,
    schema: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
  },
  RateLimitLimit: { description: 'Requests allowed per rolling minute (per account)', required: true, schema: { type: 'integer', minimum: 0 } },
  RateLimitRemaining: { description: 'Requests left in the current window', required: true, schema: { type: 'integer', minimum: 0 } },
  RateLimitReset: { description: 'Seconds until the window has room again', required: true, schema: { type: 'integer', minimum: 0 } },
  RetryAfter: { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 0 } },
  Allow: { description: 'The methods the path takes (405 only)', schema: { type: 'string' } },
  IdempotentReplayed: {
    description: 'Present, `true`, when this is the answer of an earlier request with the same Idempotency-Key, given again.',
    required: false,
    schema: { type: 'string', enum: ['true'] },
  },
  ETag: {
    description: 'A strong validator of this exact answer; send it back as `If-None-Match`. An answer with signed media links changes on every request.',
    required: true,
    schema: { type: 'string' },
  },
} as const;

export const paramRef = (name: keyof typeof parameters) => ref('parameters', name);
export const headerRef = (name: keyof typeof headers) => ref('headers', name);

/** The rate-limit headers: on every answer of an authenticated route once its key is known. */
export const rateLimitHeaders = {
  'RateLimit-Limit': headerRef('RateLimitLimit'),
  'RateLimit-Remaining': headerRef('RateLimitRemaining'),
  'RateLimit-Reset': headerRef('RateLimitReset'),
};
