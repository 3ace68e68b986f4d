/**
 * The route table: the one list of endpoints. The CDK stack turns each entry into an HTTP API route
 * wired to its group's Lambda; the local server matches requests against the same entries.
 */
import type { Scope } from '#domain/api-keys';
import { AVATAR_UPLOAD_MAX_BYTES, DEMO_VIDEO_MAX_BYTES, REFERENCE_VIDEO_MAX_BYTES } from '#domain/uploads';
import * as z from 'zod/mini';
import type { ZodMiniType } from 'zod/mini';
import type { ErrorCode } from '#domain/errors';
import { dataOf, deletedRecord, pageOf } from '#domain/schemas/envelope';
import { createProductInput, productResponse, updateProductInput } from '#domain/schemas/product';
import { avatarResponse, createAvatarFromPrompt, createAvatarFromUpload } from '#domain/schemas/avatar';
import { saveReactionInput, savedReactionResponse } from '#domain/schemas/reaction';
import { approveVideoInput, createVideoInput, regenerateVideoInput } from '#domain/schemas/video';
import { jobResponse } from '#domain/schemas/job';
import { finishedVideoResponse } from '#domain/schemas/finished-video';
import { hookIdeasResponse, hookRequest } from '#domain/schemas/hooks';
import { channelSyncInput, channelSyncResponse, connectionResponse, disconnectResponse, postResponse } from '#domain/schemas/social';
import { analyticsOverviewResponse, analyticsSyncResponse } from '#domain/schemas/analytics';
import { usageResponse } from '#domain/schemas/usage';
import { livenessResponse } from '#domain/schemas/meta';
import { connectionInput } from '#domain/social';
import { createPostInput } from '#domain/social-post';

export const API_PREFIX = '/api/v1';
export const API_NAME = 'Reaction Studio API';
export const API_VERSION = 'v1';

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
  /** Background functions this one starts asynchronously; `env` names the variable holding the function name. */
  invokes?: readonly { worker: string; env: string }[];
  /** Gets the ffmpeg/ffprobe layer and FFMPEG_PATH / FFPROBE_PATH. */
  ffmpeg?: boolean;
  /** Gets the native-modules layer (sharp, Skia canvas), which its bundle then leaves external. */
  native?: boolean;
  /** Generation capabilities it calls: it gets their engine settings and the hosted adapters' grants. */
  engines?: readonly ('avatar' | 'reaction' | 'hooks')[];
  /** Capabilities whose configured engine it only needs to know (to pick inline or background work). */
  engineChoices?: readonly ('avatar' | 'reaction' | 'hooks')[];
  /** Uses the key that encrypts social-provider credentials (KMS on AWS, a key file locally). */
  connectionKey?: 'encrypt-decrypt' | 'decrypt';
  /** What it asks of the job state machine: start executions, send preview decisions back. */
  jobs?: readonly ('start' | 'decide')[];
  memoryMb?: number;
  /** API functions stay under API Gateway's 30 s integration limit. */
  timeoutS?: number;
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
    invokes: [{ worker: 'normalise-demo', env: 'NORMALISE_FUNCTION_NAME' }],
    // ffprobe validates an upload before the request is answered; 1769 MB is one full vCPU.
    ffmpeg: true,
    memoryMb: 1769,
    timeoutS: 29,
  },
  avatars: {
    entry: 'functions/handlers/avatars.ts',
    description: 'avatars: prompt-generated (local engine inline, hosted in the background) or uploaded',
    table: 'readwrite',
    bucket: 'readwrite',
    invokes: [{ worker: 'generate-avatar', env: 'GENERATE_AVATAR_FUNCTION_NAME' }],
    // Reads AVATAR_ENGINE to decide between inline (local) and background (hosted) generation.
    engineChoices: ['avatar'],
    // sharp re-encodes uploads and rasterises generated portraits within the request.
    native: true,
    memoryMb: 1769,
    timeoutS: 29,
  },
  hooks: {
    entry: 'functions/handlers/hooks.ts',
    description: 'hook caption ideas',
    table: 'readwrite',
    bucket: 'none',
    engines: ['hooks'],
    timeoutS: 29,
  },
  videos: {
    entry: 'functions/handlers/videos.ts',
    description: 'video jobs (create, poll, approve, regenerate) and finished videos',
    table: 'readwrite',
    bucket: 'readwrite',
    jobs: ['start', 'decide'],
    // ffprobe checks an uploaded reference clip before the job is accepted.
    ffmpeg: true,
    memoryMb: 1769,
    timeoutS: 29,
  },
  reactions: {
    entry: 'functions/handlers/reactions.ts',
    description: 'the saved-reaction library',
    table: 'readwrite',
    bucket: 'readwrite',
    timeoutS: 29,
  },
  social: {
    entry: 'functions/handlers/social.ts',
    description: 'social connections, channel sync and posts through the scheduling providers',
    table: 'readwrite',
    // Presigned URLs of finished videos are handed to the providers.
    bucket: 'read',
    connectionKey: 'encrypt-decrypt',
    timeoutS: 29,
  },
  analytics: {
    entry: 'functions/handlers/analytics.ts',
    description: 'analytics cached from the scheduling providers',
    table: 'readwrite',
    bucket: 'none',
    connectionKey: 'decrypt',
    timeoutS: 29,
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
  /** `none` routes skip authentication and the rate limit. */
  auth: 'none' | 'required';
  scopes: readonly Scope[];
  /** The largest request body the route accepts; the local server refuses larger ones before reading them. */
  maxBodyBytes: number;
  /** What the API description (functions/openapi) says about the route. */
  contract: RouteContract;
}

export type BodyKind = 'json' | 'form' | 'multipart';
type SuccessStatus = 200 | 201 | 202;

/** One success answer: JSON by default, with the schema of its whole body. */
interface Answer {
  description: string;
  schema?: ZodMiniType;
  /** Non-JSON answers (the docs page and its script). */
  contentType?: string;
}

/**
 * The route's request and answers, from the same zod schemas the operations parse with. Refusals that
 * follow from the route's shape (auth, path ids, pagination, a body, file parts) are derived by
 * functions/openapi/errors.ts; `errors` lists only what the operation itself adds.
 */
interface RouteContract {
  summary: string;
  description?: string;
  body?: {
    accept: readonly BodyKind[];
    schema: ZodMiniType;
    /** Multipart file parts by field name. */
    files?: Readonly<Record<string, { description: string; maxBytes: number; required?: true }>>;
    /** The text fields of a multipart body, where they differ from the JSON and form ones. */
    multipartSchema?: ZodMiniType;
    /** Whether the route takes no body at all unless one is sent (every field optional). */
    optional?: true;
  };
  query?: readonly ('page' | 'days')[];
  responses: Readonly<Partial<Record<SuccessStatus, Answer>>>;
  errors?: readonly ErrorCode[];
  /** Takes an Idempotency-Key header (a repeat with the same key returns the same result). */
  idempotencyKey?: true;
}

const KB = 1024;
const MB = 1024 * KB;
/** Room for multipart framing and the text fields around an upload. */
const MULTIPART_OVERHEAD = 1 * MB;
/** JSON and form bodies; only multipart uploads may be larger. */
export const JSON_BODY_LIMIT = 256 * KB;

type RouteOptions = Partial<Pick<RouteDefinition, 'auth' | 'scopes' | 'maxBodyBytes'>> & RouteContract;

function route(method: HttpMethod, path: string, group: HandlerGroup, operation: string, options: RouteOptions): RouteDefinition {
  const { auth, scopes, maxBodyBytes, ...contract } = options;
  const defaultScope: Scope = method === 'GET' ? 'read' : 'write';
  return {
    method,
    path,
    group,
    operation,
    auth: auth ?? 'required',
    scopes: scopes ?? (auth === 'none' ? [] : [defaultScope]),
    maxBodyBytes: maxBodyBytes ?? JSON_BODY_LIMIT,
    contract,
  };
}

const ok = (description: string, schema: ZodMiniType): Answer => ({ description, schema });
const gone: Answer = { description: 'Deleted', schema: dataOf(deletedRecord) };
const ANY_BODY = ['json', 'form', 'multipart'] as const;
const FIELDS_ONLY = ['json', 'form'] as const;

const DEMO_VIDEO = { description: 'MP4, MOV or AVI (decided by its bytes), vertical, at most 180 s', maxBytes: DEMO_VIDEO_MAX_BYTES };
const AVATAR_IMAGE = { description: 'JPG, PNG or WEBP (decided by its bytes), at least 340x340', maxBytes: AVATAR_UPLOAD_MAX_BYTES };
const REFERENCE_VIDEO = {
  description: 'The motion reference for video_source=upload: MP4, MOV, WEBM or AVI, at most 60 s',
  maxBytes: REFERENCE_VIDEO_MAX_BYTES,
};

export const ROUTES: readonly RouteDefinition[] = [
  route('GET', '/', 'meta', 'liveness', { auth: 'none', summary: 'Liveness', responses: { 200: ok('The service answers', dataOf(livenessResponse)) } }),
  route('GET', '/openapi.json', 'meta', 'openapiDocument', {
    auth: 'none',
    summary: 'This API description (OpenAPI 3.1)',
    responses: { 200: { description: 'The OpenAPI document', contentType: 'application/json' } },
  }),
  route('GET', '/docs', 'meta', 'docsPage', {
    auth: 'none',
    summary: 'The API reference page',
    responses: { 200: { description: 'A page rendering this document; it loads its script from this API only', contentType: 'text/html' } },
  }),
  route('GET', '/docs/scalar.js', 'meta', 'docsScript', {
    auth: 'none',
    summary: "The reference page's script",
    responses: { 200: { description: 'The Scalar API reference bundle', contentType: 'text/javascript' } },
  }),

  route('GET', '/products', 'products', 'list', {
    summary: 'List products',
    query: ['page'],
    responses: { 200: ok('A page of products, newest first', pageOf(productResponse)) },
  }),
  route('POST', '/products', 'products', 'create', {
    maxBodyBytes: DEMO_VIDEO_MAX_BYTES + MULTIPART_OVERHEAD,
    summary: 'Create a product',
    description: 'With an optional demo clip (multipart `demo_video`), normalised in the background.',
    body: { accept: ANY_BODY, schema: createProductInput, files: { demo_video: DEMO_VIDEO } },
    responses: { 201: ok('Created; a demo clip is `processing`', dataOf(productResponse)) },
  }),
  route('GET', '/products/{id}', 'products', 'get', { summary: 'Get a product', responses: { 200: ok('The product', dataOf(productResponse)) } }),
  route('PATCH', '/products/{id}', 'products', 'update', {
    summary: 'Update a product',
    body: { accept: ANY_BODY, schema: updateProductInput },
    responses: { 200: ok('The updated product', dataOf(productResponse)) },
  }),
  route('PUT', '/products/{id}', 'products', 'update', {
    summary: 'Update a product (as PATCH: only the fields given change)',
    body: { accept: ANY_BODY, schema: updateProductInput },
    responses: { 200: ok('The updated product', dataOf(productResponse)) },
  }),
  route('DELETE', '/products/{id}', 'products', 'remove', { summary: 'Delete a product and its demo', responses: { 200: gone } }),

  route('GET', '/avatars', 'avatars', 'list', {
    summary: 'List avatars (all of them, newest first)',
    responses: { 200: ok('Every avatar of the account', dataOf(z.array(avatarResponse))) },
  }),
  route('POST', '/avatars', 'avatars', 'create', {
    maxBodyBytes: AVATAR_UPLOAD_MAX_BYTES + MULTIPART_OVERHEAD,
    summary: 'Create an avatar from a prompt, or upload one',
    description: 'A `prompt` (JSON or form) generates one; a multipart `image` uploads one. Not both.',
    body: { accept: ANY_BODY, schema: createAvatarFromPrompt, multipartSchema: createAvatarFromUpload, files: { image: { ...AVATAR_IMAGE, required: true } } },
    responses: {
      201: ok('Made within the request (an upload, or the local engine): `ready`', dataOf(avatarResponse)),
      202: ok('A hosted engine makes it in the background: `processing`', dataOf(avatarResponse)),
    },
    errors: ['avatars_full', 'invalid_media', 'upstream_unavailable'],
  }),
  route('GET', '/avatars/{id}', 'avatars', 'get', { summary: 'Get an avatar', responses: { 200: ok('The avatar', dataOf(avatarResponse)) } }),
  route('DELETE', '/avatars/{id}', 'avatars', 'remove', { summary: 'Delete an avatar and its images', responses: { 200: gone } }),

  route('GET', '/reactions', 'reactions', 'list', {
    summary: 'List saved reactions',
    responses: { 200: ok('The library, newest first', dataOf(z.array(savedReactionResponse))) },
  }),
  route('POST', '/reactions', 'reactions', 'create', {
    summary: "Save a preview job's reaction clip to the library",
    body: { accept: ANY_BODY, schema: saveReactionInput },
    responses: {
      200: ok('This job was saved before: the same reaction', dataOf(savedReactionResponse)),
      201: ok('Saved', dataOf(savedReactionResponse)),
    },
    errors: ['not_found', 'conflict', 'library_full'],
  }),
  route('GET', '/reactions/{id}', 'reactions', 'get', { summary: 'Get a saved reaction', responses: { 200: ok('The saved reaction', dataOf(savedReactionResponse)) } }),
  route('DELETE', '/reactions/{id}', 'reactions', 'remove', { summary: 'Delete a saved reaction', responses: { 200: gone } }),

  route('GET', '/videos', 'videos', 'list', {
    summary: 'List finished videos',
    query: ['page'],
    responses: { 200: ok('A page of videos, newest first', pageOf(finishedVideoResponse)) },
  }),
  route('POST', '/videos', 'videos', 'create', {
    maxBodyBytes: REFERENCE_VIDEO_MAX_BYTES + MULTIPART_OVERHEAD,
    summary: 'Start a video job',
    description: 'Reserves one unit of the monthly allowance. `prompt` needs prompt; `motion` needs avatar_id and video_source (then reference_url, or a reference_video file); `reuse` needs reaction_id.',
    body: { accept: ANY_BODY, schema: createVideoInput, files: { reference_video: REFERENCE_VIDEO } },
    idempotencyKey: true,
    responses: { 202: ok('Accepted: the job, `queued` (or, for a repeated Idempotency-Key, as it is now)', dataOf(jobResponse)) },
    errors: ['not_found', 'conflict', 'allowance_exhausted', 'upstream_unavailable'],
  }),
  route('GET', '/videos/{id}', 'videos', 'get', { summary: 'Get a finished video', responses: { 200: ok('The video, with presigned links', dataOf(finishedVideoResponse)) } }),
  route('DELETE', '/videos/{id}', 'videos', 'remove', { summary: 'Delete a finished video and its files', responses: { 200: gone } }),
  route('GET', '/videos/jobs/{id}', 'videos', 'getJob', { summary: 'Get a video job', responses: { 200: ok('The job', dataOf(jobResponse)) } }),
  route('POST', '/videos/jobs/{id}/approve', 'videos', 'approve', {
    summary: 'Approve a preview',
    description: 'Optionally with a changed caption (`hook_text: null` drops it).',
    body: { accept: FIELDS_ONLY, schema: approveVideoInput, optional: true },
    responses: { 202: ok('Accepted: the job, `processing`', dataOf(jobResponse)) },
    errors: ['conflict', 'upstream_unavailable'],
  }),
  route('POST', '/videos/jobs/{id}/regenerate', 'videos', 'regenerate', {
    maxBodyBytes: REFERENCE_VIDEO_MAX_BYTES + MULTIPART_OVERHEAD,
    summary: 'Regenerate a preview',
    description: 'Reserves one more unit. Nothing sent: the same inputs with a new seed.',
    body: { accept: ANY_BODY, schema: regenerateVideoInput, files: { reference_video: REFERENCE_VIDEO }, optional: true },
    responses: { 202: ok('Accepted: the job, `queued`', dataOf(jobResponse)) },
    errors: ['not_found', 'conflict', 'allowance_exhausted', 'upstream_unavailable'],
  }),

  route('POST', '/hooks', 'hooks', 'create', {
    summary: 'Caption ideas for a product',
    body: { accept: ANY_BODY, schema: hookRequest },
    responses: { 200: ok('Ten ideas', dataOf(hookIdeasResponse)) },
    errors: ['not_found', 'invalid_media', 'upstream_unavailable'],
  }),

  route('GET', '/social/connections', 'social', 'listConnections', {
    summary: 'List social connections',
    responses: { 200: ok('Every connected provider with its channels', dataOf(z.array(connectionResponse))) },
  }),
  // First-party: the studio (or a script) connects a provider with the account's key for it.
  route('PUT', '/social/connections/{provider}', 'social', 'connect', {
    scopes: ['publish'],
    summary: 'Connect a scheduling provider',
    body: { accept: FIELDS_ONLY, schema: connectionInput },
    responses: { 200: ok('Replaced the earlier connection', dataOf(connectionResponse)), 201: ok('Connected', dataOf(connectionResponse)) },
    errors: ['conflict', 'rate_limited', 'upstream_unavailable'],
  }),
  route('DELETE', '/social/connections/{provider}', 'social', 'disconnect', {
    scopes: ['publish'],
    summary: 'Disconnect a scheduling provider',
    responses: { 200: ok('Disconnected', dataOf(disconnectResponse)) },
    errors: ['not_found'],
  }),
  route('POST', '/social/accounts/sync', 'social', 'syncAccounts', {
    scopes: ['publish'],
    summary: "Refresh a provider's channel list",
    body: { accept: FIELDS_ONLY, schema: channelSyncInput },
    responses: { 200: ok('The channels now, and what changed', dataOf(channelSyncResponse)) },
    errors: ['conflict', 'rate_limited', 'upstream_unavailable'],
  }),
  route('GET', '/social/posts', 'social', 'listPosts', {
    summary: 'List posts',
    query: ['page'],
    responses: { 200: ok('A page of posts, newest first', pageOf(postResponse)) },
  }),
  route('POST', '/social/posts', 'social', 'createPost', {
    scopes: ['publish'],
    summary: 'Publish or schedule a finished video',
    description: 'In a form body `account_ids` is one comma-separated field, `draft` is `true` or `false`, and an empty `schedule_at` means now.',
    body: { accept: FIELDS_ONLY, schema: createPostInput },
    responses: { 201: ok('Handed to the provider', dataOf(postResponse)) },
    errors: ['not_found', 'conflict', 'rate_limited', 'upstream_unavailable'],
  }),
  route('GET', '/social/posts/{id}', 'social', 'getPost', { summary: 'Get a post, refreshed from its provider', responses: { 200: ok('The post', dataOf(postResponse)) } }),
  route('DELETE', '/social/posts/{id}', 'social', 'deletePost', {
    scopes: ['publish'],
    summary: 'Delete a post at its provider',
    responses: { 200: gone },
    errors: ['conflict', 'rate_limited', 'upstream_unavailable'],
  }),

  route('GET', '/analytics', 'analytics', 'overview', {
    summary: 'Analytics from the last syncs',
    query: ['days'],
    responses: { 200: ok('The window, added up', dataOf(analyticsOverviewResponse)) },
  }),
  route('POST', '/analytics/sync', 'analytics', 'sync', {
    summary: 'Pull analytics from every connected provider',
    query: ['days'],
    responses: { 200: ok('What each provider answered, and the overview after it', dataOf(analyticsSyncResponse)) },
  }),

  route('GET', '/usage', 'usage', 'get', { summary: 'Plan and allowance usage', responses: { 200: ok('The counters', dataOf(usageResponse)) } }),
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

const compiled: CompiledPath[] = [...new Set(ROUTES.map((r) => r.path))].map((path) => {
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

/** Matches a request path (trailing slash ignored) the way API Gateway would, plus 405 detection. */
export function matchRoute(method: string, rawPath: string): RouteMatch {
  const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath;
  for (const candidate of compiled) {
    const m = candidate.pattern.exec(path);
    if (!m) continue;
    const pathParameters: Record<string, string> = {};
    candidate.names.forEach((name, i) => {
      pathParameters[name] = safeDecode(m[i + 1]!);
    });
    const forPath = ROUTES.filter((r) => r.path === candidate.path);
    const found = forPath.find((r) => r.method === method.toUpperCase());
    if (found) return { kind: 'matched', route: found, pathParameters };
    return { kind: 'method_not_allowed', allow: forPath.map((r) => r.method) };
  }
  return { kind: 'not_found' };
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
