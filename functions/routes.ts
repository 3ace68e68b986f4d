/**
 * The route table: the one list of endpoints. The CDK stack turns each entry into an HTTP API route
 * wired to its group's Lambda; the local server matches requests against the same entries.
 *
 * It holds only what serving a request needs (no zod schemas), so every function bundles it cheaply;
 * what the API description adds per route (schemas, summaries, answers) is in
 * functions/openapi/route-contracts.ts, keyed by the same method and path.
 */
import type { Scope } from '#domain/api-keys';
import type { MediaArea } from '#domain/media-areas';
import { AVATAR_UPLOAD_MAX_BYTES, DEMO_VIDEO_MAX_BYTES, MUSIC_MAX_BYTES, REFERENCE_VIDEO_MAX_BYTES } from '#domain/uploads';

export const API_PREFIX = '/api/v1';
export const API_NAME = 'Reaction Studio API';
/** The major version, in the path: a change that breaks a client comes only with the next one (docs/versioning.md). */
export const API_VERSION = 'v1';
/**
 * The date of v1's latest revision: every answer's `Reaction-Studio-Version` header, the API
 * description's `info.version`, and the newest entry of docs/changelog.md (a test holds them equal).
 */
export const API_REVISION = '2026-11-30';
export const API_VERSION_HEADER = 'reaction-studio-version';

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type { Scope };

/**
 * What one Lambda function needs from the infrastructure. The CDK stack grants exactly this and
 * nothing more, so this object is the one place where a group's permissions are decided.
 */
export interface FunctionNeeds {
  /** Path of the handler module from the repository root. */
  entry: string;
  description: string;
  /** Every authenticated group writes the table: the rate-limit counter and the key's last use. */
  table: 'readwrite' | 'read' | 'none';
  bucket: 'readwrite' | 'read' | 'none';
  /** With `readwrite`: the media areas it writes and deletes in (reads reach the whole bucket). */
  writes?: readonly MediaArea[];
  /** Background functions this one starts asynchronously; `env` names the variable holding the function name. */
  invokes?: readonly { worker: string; env: string }[];
  /**
   * Functions it calls synchronously and waits for within the request (lib/cloud/face-check.ts: the
   * face-check function); `env` names the variable holding the function name.
   */
  calls?: readonly { helper: string; env: string }[];
  /** Gets the ffmpeg/ffprobe layer and FFMPEG_PATH / FFPROBE_PATH. */
  ffmpeg?: boolean;
  /** Gets the native-modules layer (sharp, Skia canvas), which its bundle then leaves external. */
  native?: boolean;
  /**
   * Packages a dependency imports on a path this function never takes: its bundle gets
   * functions/handlers/absent-module.ts in their place (which throws if ever reached).
   */
  absent?: readonly string[];
  /**
   * Looks for a face in an upload within the request (the FaceFinder port): gets the face-runtime
   * layer (human's Node WASM build, its three models, tfjs; about 9 MB, lib/cloud/face-layer.ts).
   */
  faces?: boolean;
  /** Generation capabilities it calls: it gets their engine settings and the hosted adapters' grants. */
  engines?: readonly ('avatar' | 'reaction' | 'hooks')[];
  /** Capabilities whose configured engine it only needs to know (to pick inline or background work). */
  engineChoices?: readonly ('avatar' | 'reaction' | 'hooks')[];
  /** Uses the key that encrypts social-provider credentials (KMS on AWS, a key file locally). */
  connectionKey?: 'encrypt-decrypt' | 'decrypt';
  /** What it asks of the job state machine: start executions, send preview decisions back. */
  jobs?: readonly ('start' | 'decide')[];
  /**
   * Sends mail (password-reset links) through SES: where the deployment names a sender, it gets
   * MAIL_FROM, STUDIO_URL (where the links point) and the right to send from that address only.
   */
  mail?: boolean;
  /** Talks to the payment provider: gets the Stripe settings and may read the Stripe secret, when the deployment has one. */
  billing?: true;
}

/** A handler group is one Lambda function (one bundle) serving several operations. */
export const HANDLER_GROUPS = {
  meta: {
    entry: 'functions/handlers/meta.ts',
    description: 'liveness and the fallback for unknown routes',
    table: 'none',
    bucket: 'none',
  },
  products: {
    entry: 'functions/handlers/products.ts',
    description: 'products and their demo videos',
    table: 'readwrite',
    bucket: 'readwrite',
    // Products' media; an upload it takes is moved out of uploads/.
    writes: ['products', 'uploads'],
    // A sample product waits for the sample-demo worker only while the stack has no sample clip yet.
    invokes: [
      { worker: 'normalise-demo', env: 'NORMALISE_FUNCTION_NAME' },
      { worker: 'sample-demo', env: 'SAMPLE_DEMO_FUNCTION_NAME' },
    ],
    // ffprobe validates an upload before the request is answered; 1769 MB is one full vCPU.
    ffmpeg: true,
  },
  avatars: {
    entry: 'functions/handlers/avatars.ts',
    description: 'avatars: prompt-generated (local engine inline, hosted in the background) or uploaded',
    table: 'readwrite',
    bucket: 'readwrite',
    // Avatars' images; the stock avatars' portraits, drawn once per stack (samples/).
    writes: ['avatars', 'uploads', 'samples'],
    invokes: [{ worker: 'generate-avatar', env: 'GENERATE_AVATAR_FUNCTION_NAME' }],
    // Reads AVATAR_ENGINE to decide between inline (local) and background (hosted) generation.
    engineChoices: ['avatar'],
    // sharp re-encodes uploads and rasterises generated portraits within the request.
    native: true,
    // An uploaded image must show a face (human), found before anything is written.
    faces: true,
  },
  music: {
    entry: 'functions/handlers/music.ts',
    description: 'the music library: built-in beds and the account\'s own tracks, levelled when added',
    table: 'readwrite',
    bucket: 'readwrite',
    // The account's tracks; an upload it takes is moved out of uploads/.
    // A built-in bed is rendered into sounds/ the first time it is played.
    writes: ['music', 'uploads', 'sounds'],
    // ffprobe judges and ffmpeg levels an uploaded track within the request: a 10-minute one takes about 15 s of one full vCPU (1769 MB).
    ffmpeg: true,
  },
  hooks: {
    entry: 'functions/handlers/hooks.ts',
    description: 'hook caption ideas, and captions drawn as the videos draw them',
    table: 'readwrite',
    bucket: 'none',
    engines: ['hooks'],
    // The caption preview draws with Skia and the caption fonts (both in the native-modules layer).
    native: true,
  },
  videos: {
    entry: 'functions/handlers/videos.ts',
    description: 'video jobs (create, poll, approve, regenerate), finished videos, and the hosted engine\'s callbacks that resume them',
    table: 'readwrite',
    bucket: 'readwrite',
    // Reference clips of jobs (an uploaded one moved out of uploads/); deleting a finished video.
    writes: ['jobs', 'videos', 'uploads'],
    jobs: ['start', 'decide'],
    // ffprobe checks an uploaded reference clip before the job is accepted, and ffmpeg samples the
    // frames its face is looked for in; the face-check function looks at them (docs/aws.md).
    ffmpeg: true,
    calls: [{ helper: 'face-check', env: 'FACE_CHECK_FUNCTION_NAME' }],
  },
  reactions: {
    entry: 'functions/handlers/reactions.ts',
    description: 'the saved-reaction library',
    table: 'readwrite',
    bucket: 'readwrite',
    writes: ['reactions'],
  },
  social: {
    entry: 'functions/handlers/social.ts',
    description: 'social connections, channel sync and posts through the scheduling providers',
    table: 'readwrite',
    // Presigned URLs of finished videos are handed to the providers.
    bucket: 'read',
    connectionKey: 'encrypt-decrypt',
  },
  analytics: {
    entry: 'functions/handlers/analytics.ts',
    description: 'analytics cached from the scheduling providers',
    table: 'readwrite',
    bucket: 'none',
    connectionKey: 'decrypt',
  },
  uploads: {
    entry: 'functions/handlers/uploads.ts',
    description: 'direct uploads: presigned forms that send a file straight to the bucket',
    // The upload records; the bucket only to sign forms with (the role's right to put under uploads/).
    table: 'readwrite',
    bucket: 'readwrite',
    writes: ['uploads'],
  },
  accounts: {
    entry: 'functions/handlers/accounts.ts',
    description: 'sign-up, sign-in, password reset and studio sessions, the account, and its API keys',
    // Users, sessions, keys, and the sign-in throttles' counters.
    table: 'readwrite',
    bucket: 'none',
    // Password-reset links.
    mail: true,
  },
  webhooks: {
    entry: 'functions/handlers/webhooks.ts',
    description: 'webhook endpoints and their secrets, delivery logs, retries and test pings; the account\'s sent events',
    // Endpoints, deliveries and the outbox; URLs are vetted by resolving them, and a manual retry is sent from here (no bucket).
    table: 'readwrite',
    bucket: 'none',
  },
  billing: {
    entry: 'functions/handlers/billing.ts',
    description: 'the plan table, plan changes and the payment provider\'s webhook',
    // The account's plan, the plan-change claim and the provider events already applied.
    table: 'readwrite',
    bucket: 'none',
    billing: true,
  },
  usage: {
    entry: 'functions/handlers/usage.ts',
    description: 'plan and allowance usage',
    table: 'readwrite',
    bucket: 'none',
  },
} as const satisfies Record<string, FunctionNeeds>;

export type HandlerGroup = keyof typeof HANDLER_GROUPS;

export interface RouteDefinition {
  method: HttpMethod;
  /** Path relative to API_PREFIX, with `{name}` path parameters as API Gateway writes them. */
  path: string;
  group: HandlerGroup;
  operation: string;
  /**
   * `none` routes skip authentication and the rate limit; `required` ones take an API key or the
   * studio's session cookie; `session` ones only the cookie (a key is 403: a key cannot mint keys).
   */
  auth: 'none' | 'required' | 'session';
  /** A `session` route's 403 to an API key, when the default (keys cannot manage keys or sessions) is not why. */
  keyRefusal?: string;
  scopes: readonly Scope[];
  /** The largest request body the route accepts; the local server refuses larger ones before reading them. */
  maxBodyBytes: number;
  /** The body it reads: encodings and file parts (#http/body reads it by this, so no operation repeats it). */
  body?: RouteBody;
  /**
   * Query parameters: `page` (+ per_page) pages, `before` (+ limit) a newest-first cursor, `after`
   * (+ limit) a cursor that follows new records, `days` an analytics window, `dry_run` checks and
   * quotes without doing (the rate limit is read, not counted).
   */
  query?: readonly ('page' | 'before' | 'after' | 'days' | 'dry_run')[];
  /**
   * Takes an Idempotency-Key header: a repeat with the same key and request gets the first answer
   * again, marked `Idempotent-Replayed: true`. `use-case`: the operation's use case writes the key
   * with what it creates (video jobs and batches, which reserve allowance); `answer`: the dispatcher
   * records the first successful answer and gives it again (#http/dispatch, use-cases/answer-once.ts).
   */
  idempotencyKey?: 'use-case' | 'answer';
  /**
   * A route on its way out (docs/versioning.md): its answers carry `Deprecation` and `Sunset`, and the
   * API description marks it. Dates as `YYYY-MM-DD`; `instead` says what replaces it.
   */
  deprecated?: { since: string; sunset: string; instead: string };
}

export type BodyKind = 'json' | 'form' | 'multipart';

interface FileRule {
  description: string;
  maxBytes: number;
  required?: true;
}

export interface RouteBody {
  accept: readonly BodyKind[];
  /** Multipart file parts by field name. */
  files?: Readonly<Record<string, FileRule>>;
  /** Whether the route takes no body at all unless one is sent (every field optional). */
  optional?: true;
}

const KB = 1024;
const MB = 1024 * KB;
/** Room for multipart framing and the text fields around an upload. */
const MULTIPART_OVERHEAD = 1 * MB;
/** JSON and form bodies; only multipart uploads may be larger. */
export const JSON_BODY_LIMIT = 256 * KB;

type RouteOptions = Partial<Omit<RouteDefinition, 'method' | 'path' | 'group' | 'operation'>>;

function route(method: HttpMethod, path: string, group: HandlerGroup, operation: string, options: RouteOptions = {}): RouteDefinition {
  const { auth, scopes, maxBodyBytes, ...rest } = options;
  const defaultScope: Scope = method === 'GET' ? 'read' : 'write';
  return {
    method,
    path,
    group,
    operation,
    auth: auth ?? 'required',
    scopes: scopes ?? (auth === 'none' || auth === 'session' ? [] : [defaultScope]),
    maxBodyBytes: maxBodyBytes ?? JSON_BODY_LIMIT,
    ...rest,
  };
}

const ANY_BODY = ['json', 'form', 'multipart'] as const;
const FIELDS_ONLY = ['json', 'form'] as const;
const PUBLIC = { auth: 'none' } as const;
const PUBLISH = { scopes: ['publish'] } as const;
const SESSION = { auth: 'session' } as const;
/** Sign-in bodies are a few short fields: anything larger is refused before it is read. */
const AUTH_BODY = { maxBodyBytes: 4 * KB, body: { accept: FIELDS_ONLY } } as const;

const DEMO_VIDEO: FileRule = {
  description: 'MP4, MOV, AVI or WEBM (decided by its bytes; a WebM holds VP8, VP9 or AV1 with Opus, Vorbis or no sound), vertical unless `reframe` is sent, at most 180 s kept (`demo_start_s`, `demo_end_s`)',
  maxBytes: DEMO_VIDEO_MAX_BYTES,
};
const AVATAR_IMAGE: FileRule = { description: 'JPG, PNG or WEBP (decided by its bytes), at least 340x340', maxBytes: AVATAR_UPLOAD_MAX_BYTES };
const REFERENCE_VIDEO: FileRule = {
  description: 'The motion reference for video_source=upload: MP4, MOV, WEBM or AVI, at most 60 s',
  maxBytes: REFERENCE_VIDEO_MAX_BYTES,
};
const MUSIC_AUDIO: FileRule = { description: 'MP3, M4A/AAC, WAV, OGG/Opus or FLAC (decided by its bytes), at most 10 minutes', maxBytes: MUSIC_MAX_BYTES };
const uploadLimit = (file: FileRule) => file.maxBytes + MULTIPART_OVERHEAD;

export const ROUTES: readonly RouteDefinition[] = [
  route('GET', '/', 'meta', 'liveness', PUBLIC),
  route('GET', '/openapi.json', 'meta', 'openapiDocument', PUBLIC),
  route('GET', '/docs', 'meta', 'docsPage', PUBLIC),
  route('GET', '/docs/reference.js', 'meta', 'docsScript', PUBLIC),
  route('GET', '/docs/reference.css', 'meta', 'docsStyle', PUBLIC),
  route('GET', '/docs/errors', 'meta', 'docsErrors', PUBLIC),

  route('GET', '/products', 'products', 'list', { query: ['page'] }),
  route('POST', '/products', 'products', 'create', { maxBodyBytes: uploadLimit(DEMO_VIDEO), body: { accept: ANY_BODY, files: { demo_video: DEMO_VIDEO } }, idempotencyKey: 'answer' }),
  // The built-in sample product: it takes no fields, so a body (none, or an empty JSON or form one) is a few bytes at most.
  route('POST', '/products/sample', 'products', 'createSample', { maxBodyBytes: 1 * KB, body: { accept: FIELDS_ONLY, optional: true }, idempotencyKey: 'answer' }),
  route('GET', '/products/{id}', 'products', 'get'),
  route('PATCH', '/products/{id}', 'products', 'update', { body: { accept: ANY_BODY } }),
  route('PUT', '/products/{id}', 'products', 'update', { body: { accept: ANY_BODY } }),
  route('DELETE', '/products/{id}', 'products', 'remove'),

  route('GET', '/avatars', 'avatars', 'list'),
  route('POST', '/avatars', 'avatars', 'create', {
    maxBodyBytes: uploadLimit(AVATAR_IMAGE),
    body: { accept: ANY_BODY, files: { image: { ...AVATAR_IMAGE, required: true } } },
    idempotencyKey: 'answer',
  }),
  route('GET', '/avatars/{id}', 'avatars', 'get'),
  route('DELETE', '/avatars/{id}', 'avatars', 'remove'),

  route('GET', '/music', 'music', 'list'),
  route('POST', '/music', 'music', 'create', { maxBodyBytes: uploadLimit(MUSIC_AUDIO), body: { accept: ANY_BODY, files: { audio: MUSIC_AUDIO } }, idempotencyKey: 'answer' }),
  route('GET', '/music/{music_id}/audio', 'music', 'audio'),
  route('DELETE', '/music/{music_id}', 'music', 'remove'),

  route('GET', '/reactions', 'reactions', 'list'),
  route('POST', '/reactions', 'reactions', 'create', { body: { accept: ANY_BODY }, idempotencyKey: 'answer' }),
  route('GET', '/reactions/{id}', 'reactions', 'get'),
  route('DELETE', '/reactions/{id}', 'reactions', 'remove'),

  route('GET', '/videos', 'videos', 'list', { query: ['page'] }),
  route('POST', '/videos', 'videos', 'create', {
    maxBodyBytes: uploadLimit(REFERENCE_VIDEO),
    body: { accept: ANY_BODY, files: { reference_video: REFERENCE_VIDEO } },
    idempotencyKey: 'use-case',
    query: ['dry_run'],
  }),
  route('GET', '/videos/jobs', 'videos', 'listJobs', { query: ['before'] }),
  route('GET', '/videos/{id}', 'videos', 'get'),
  route('DELETE', '/videos/{id}', 'videos', 'remove'),
  route('GET', '/videos/jobs/{id}', 'videos', 'getJob'),
  route('GET', '/videos/jobs/{id}/takes', 'videos', 'listTakes'),
  route('POST', '/videos/jobs/{id}/approve', 'videos', 'approve', { body: { accept: FIELDS_ONLY, optional: true } }),
  route('POST', '/videos/jobs/{id}/regenerate', 'videos', 'regenerate', {
    maxBodyBytes: uploadLimit(REFERENCE_VIDEO),
    body: { accept: ANY_BODY, files: { reference_video: REFERENCE_VIDEO }, optional: true },
    query: ['dry_run'],
  }),

  // Variant batches: many jobs of one product in one request (JSON only: a variant's clip is a direct upload).
  // fal's completion webhook for a job generating by callback; the ticket is the job and its round's secret.
  route('POST', '/engines/fal/callbacks/{ticket}', 'videos', 'falCallback', { ...PUBLIC, body: { accept: ['json'] }, maxBodyBytes: 64 * KB }),
  route('POST', '/videos/batch', 'videos', 'createBatch', { body: { accept: ['json'] }, idempotencyKey: 'use-case', query: ['dry_run'] }),
  route('GET', '/videos/batches/{id}', 'videos', 'getBatch'),

  route('POST', '/hooks', 'hooks', 'create', { body: { accept: ANY_BODY } }),
  // Draws and keeps nothing (a read key may use it); a few short fields, so a larger body is refused unread.
  route('POST', '/captions/preview', 'hooks', 'previewCaption', { scopes: ['read'], maxBodyBytes: 4 * KB, body: { accept: FIELDS_ONLY } }),

  route('GET', '/social/connections', 'social', 'listConnections'),
  // First-party: the studio (or a script) connects a provider with the account's key for it.
  route('PUT', '/social/connections/{provider}', 'social', 'connect', { ...PUBLISH, body: { accept: FIELDS_ONLY } }),
  route('DELETE', '/social/connections/{provider}', 'social', 'disconnect', PUBLISH),
  route('POST', '/social/accounts/sync', 'social', 'syncAccounts', { ...PUBLISH, body: { accept: FIELDS_ONLY } }),
  route('GET', '/social/posts', 'social', 'listPosts', { query: ['page'] }),
  route('POST', '/social/posts', 'social', 'createPost', { ...PUBLISH, body: { accept: FIELDS_ONLY }, idempotencyKey: 'answer' }),
  route('GET', '/social/posts/{id}', 'social', 'getPost'),
  route('DELETE', '/social/posts/{id}', 'social', 'deletePost', PUBLISH),

  route('GET', '/analytics', 'analytics', 'overview', { query: ['days'] }),
  route('POST', '/analytics/sync', 'analytics', 'sync', { query: ['days'] }),

  route('GET', '/usage', 'usage', 'get'),

  route('GET', '/plans', 'billing', 'plans', PUBLIC),
  // The owner's session only: a key (a script, an integration) must not be able to spend the owner's money.
  route('PUT', '/account/plan', 'billing', 'changePlan', {
    ...SESSION,
    keyRefusal: "Plans change only from the studio's session (the owner signed in; studio: Plans page), never with an API key",
    maxBodyBytes: 4 * KB,
    body: { accept: FIELDS_ONLY },
  }),
  // Stripe's deliveries: no credential but their signature, checked on the raw bytes (the largest Stripe event is far under 256 KB).
  route('POST', '/billing/stripe/webhook', 'billing', 'stripeWebhook', { ...PUBLIC, body: { accept: ['json'] } }),

  route('POST', '/auth/signup', 'accounts', 'signUp', { ...PUBLIC, ...AUTH_BODY }),
  route('POST', '/auth/login', 'accounts', 'logIn', { ...PUBLIC, ...AUTH_BODY }),
  route('POST', '/auth/logout', 'accounts', 'logOut', SESSION),
  route('GET', '/auth/session', 'accounts', 'session', SESSION),
  route('POST', '/auth/password', 'accounts', 'changePassword', { ...SESSION, ...AUTH_BODY }),
  route('POST', '/auth/password-reset', 'accounts', 'requestPasswordReset', { ...PUBLIC, ...AUTH_BODY }),
  route('POST', '/auth/password-reset/confirm', 'accounts', 'confirmPasswordReset', { ...PUBLIC, ...AUTH_BODY }),
  route('GET', '/account', 'accounts', 'account'),
  // Reading what a socket pushes is reading: a read-only key may follow records.
  route('POST', '/updates/tickets', 'accounts', 'issueUpdateTicket', { scopes: ['read'] }),
  route('GET', '/keys', 'accounts', 'listKeys', SESSION),
  // No Idempotency-Key: its answer holds the new key, shown once and stored only as a hash; a recorded answer would keep it in clear.
  route('POST', '/keys', 'accounts', 'createKey', { ...SESSION, body: { accept: FIELDS_ONLY } }),
  route('DELETE', '/keys/{id}', 'accounts', 'revokeKey', SESSION),

  route('POST', '/uploads', 'uploads', 'create', { body: { accept: FIELDS_ONLY }, idempotencyKey: 'answer' }),

  route('GET', '/webhooks', 'webhooks', 'list'),
  // The secret is kept in clear anyway (every delivery is signed with it), so a recorded answer keeps nothing new.
  route('POST', '/webhooks', 'webhooks', 'create', { body: { accept: FIELDS_ONLY }, idempotencyKey: 'answer' }),
  route('GET', '/webhooks/events', 'webhooks', 'events', { query: ['after'] }),
  route('GET', '/webhooks/{webhook_id}', 'webhooks', 'get'),
  route('PATCH', '/webhooks/{webhook_id}', 'webhooks', 'update', { body: { accept: FIELDS_ONLY } }),
  route('DELETE', '/webhooks/{webhook_id}', 'webhooks', 'remove'),
  route('POST', '/webhooks/{webhook_id}/rotate-secret', 'webhooks', 'rotateSecret', { body: { accept: FIELDS_ONLY, optional: true }, idempotencyKey: 'answer' }),
  route('GET', '/webhooks/{webhook_id}/deliveries', 'webhooks', 'deliveries', { query: ['page'] }),
  route('POST', '/webhooks/{webhook_id}/deliveries/{delivery_id}/retry', 'webhooks', 'retry'),
  route('POST', '/webhooks/{webhook_id}/test', 'webhooks', 'test'),
];

/** API Gateway's route key for an entry, e.g. `GET /api/v1/products/{id}`. */
export function routeKey(r: Pick<RouteDefinition, 'method' | 'path'>): string {
  return `${r.method} ${fullPath(r.path)}`;
}

export function fullPath(path: string): string {
  return path === '/' ? API_PREFIX : `${API_PREFIX}${path}`;
}

export type RouteMatch =
  | { kind: 'matched'; route: RouteDefinition; pathParameters: Record<string, string> }
  | { kind: 'method_not_allowed'; allow: HttpMethod[] }
  | { kind: 'not_found' };

interface CompiledPath {
  path: string;
  pattern: RegExp;
  names: string[];
}

const paramCount = (path: string) => (path.match(/\{/g) ?? []).length;
// API Gateway prefers a literal segment to a parameter (/videos/jobs before /videos/{id}): fewer parameters are tried first.
const compiled: CompiledPath[] = [...new Set(ROUTES.map((r) => r.path))].sort((a, b) => paramCount(a) - paramCount(b)).map((path) => {
  const names: string[] = [];
  const source = fullPath(path)
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(param[1]!);
      return '([^/]+)';
    })
    .join('/');
  return { path, pattern: new RegExp(`^${source}$`), names };
});

/**
 * Matches a request path (trailing slash ignored) the way API Gateway would: the most literal path
 * that has a route for the method wins, so GET /products/sample reaches GET /products/{id} although
 * POST /products/sample is more literal. A path with routes for other methods only is a 405.
 */
export function matchRoute(method: string, rawPath: string): RouteMatch {
  const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath;
  let allow: HttpMethod[] | undefined;
  for (const candidate of compiled) {
    const m = candidate.pattern.exec(path);
    if (!m) continue;
    const forPath = ROUTES.filter((r) => r.path === candidate.path);
    const found = forPath.find((r) => r.method === method.toUpperCase());
    if (!found) {
      allow ??= forPath.map((r) => r.method);
      continue;
    }
    const pathParameters: Record<string, string> = {};
    candidate.names.forEach((name, i) => {
      pathParameters[name] = safeDecode(m[i + 1]!);
    });
    return { kind: 'matched', route: found, pathParameters };
  }
  return allow ? { kind: 'method_not_allowed', allow } : { kind: 'not_found' };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function routeByKey(key: string): RouteDefinition | undefined {
  return ROUTES.find((r) => routeKey(r) === key);
}
