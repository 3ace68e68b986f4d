/**
 * What every part of the provider_a sandbox speaks: Ayrshare's platform names and rules, the shapes
 * of its posts (stored and as answered), its error codes and envelope, and the routes it serves.
 */
import type { Sandbox, SandboxControl, SandboxOptions, SandboxResponse, SandboxRoute } from '../sandbox-kit';

export const PROVIDER_A_KEY_PREFIX = 'sandbox_a_';
export const PROVIDER_A_DEFAULT_PLATFORMS = ['tiktok', 'instagram', 'youtube', 'facebook'] as const;
/** Every platform name the sandbox knows (Ayrshare's spellings). */
export const PROVIDER_A_PLATFORMS = ['bluesky', 'facebook', 'gmb', 'instagram', 'linkedin', 'pinterest', 'reddit', 'snapchat', 'telegram', 'threads', 'tiktok', 'twitter', 'youtube'] as const;
/** Published copies on these networks cannot be deleted through the API (Ayrshare's rule). */
export const PROVIDER_A_UNDELETABLE = ['instagram', 'tiktok'] as const;

export const NEEDS_MEDIA = new Set(['tiktok', 'instagram', 'youtube', 'snapchat']);
/** Networks that publish asynchronously: Ayrshare answers their copy with `id: "pending"` first. */
export const PROCESSED_LATER = new Set(['tiktok']);
export const X_APP_HEADERS = ['x-twitter-oauth1-api-key', 'x-twitter-oauth1-api-secret'] as const;
export const TEXT_LIMITS: Record<string, number> = { twitter: 280, tiktok: 2200, instagram: 2200, threads: 500, bluesky: 300, linkedin: 3000, youtube: 5000, pinterest: 500, facebook: 63206 };
export const POST_STATUSES = ['pending', 'awaiting approval', 'success', 'error', 'deleted', 'paused', 'processing'] as const;

type ProviderAPostStatus = 'pending' | 'awaiting approval' | 'success' | 'error' | 'deleted';

interface ProviderAPostId {
  platform: string;
  status: 'success' | 'deleted';
  /** "pending" while the network is still processing the copy (TikTok); then no postUrl yet. */
  id: string;
  postUrl?: string;
}

export interface ProviderAError {
  action: string;
  status: 'error';
  code: number;
  message: string;
  platform: string;
}

/** What GET /post/:id answers. */
export interface ProviderAPostView {
  id: string;
  status: ProviderAPostStatus;
  post: string;
  platforms: string[];
  mediaUrls: string[];
  postIds: ProviderAPostId[];
  errors: ProviderAError[];
  scheduleDate: string | null;
  created: string;
  type: 'now' | 'scheduled';
  requiresApproval: boolean;
  approved: boolean;
  refId: string;
  profileTitle: string;
}

export interface StoredProfile {
  key: string;
  apiKey: string;
  profileKey: string | null;
  platforms: string[];
  idempotency: Record<string, string>;
}

export interface StoredPost {
  id: string;
  profile: string;
  post: string;
  platforms: string[];
  mediaUrls: string[];
  isVideo: boolean;
  scheduleDate: number | null;
  requiresApproval: boolean;
  approved: boolean;
  status: ProviderAPostStatus;
  created: number;
  /** When it goes out (null: waits for approval, or already out). */
  publishAt: number | null;
  publishedAt: number | null;
  postIds: ProviderAPostId[];
  errors: ProviderAError[];
  /** Platform copies removed, with when (analytics stop growing there). */
  deletedAt: Record<string, number>;
  mediaOk: boolean;
  /** Copies accepted but still processed by their network (TikTok), with when they finish. */
  processing?: Record<string, number>;
  /** Whether the request that created (or last retried) it carried the X app headers. */
  xApp?: boolean;
}

export interface PersistedState {
  version: 1;
  profiles: StoredProfile[];
  posts: StoredPost[];
}

export interface ProviderASandboxOptions extends SandboxOptions {
  /** How long a TikTok copy stays `id: "pending"` after its post went out. Default 2 000 ms. */
  publishDelayMs?: number;
  /** Platforms linked on a new profile. Default tiktok, instagram, youtube, facebook. */
  defaultPlatforms?: readonly string[];
  /** GET each media URL when a post is created; unreachable = 400 code 138. Default false. */
  checkMedia?: boolean;
}

export interface ProviderASandboxControl extends SandboxControl {
  /** Replace the linked platforms of a profile (created if new). [] = nothing linked. */
  linkPlatforms(apiKey: string, platforms: readonly string[], profileKey?: string | null): void;
  /** A post as GET /post/:id would show it now (settled), or undefined. */
  post(id: string): ProviderAPostView | undefined;
}

export interface ProviderASandbox extends Sandbox<ProviderASandboxControl> {
  /** Base URL to put in PROVIDER_A_BASE_URL: `http://127.0.0.1:<port>/api`. */
  url: string;
}

export const CODES = {
  badRequest: 101,
  badKey: 102,
  methodNotAllowed: 103,
  unknownEndpoint: 104,
  scheduleInPast: 135,
  notFound: 136,
  alreadyDeleted: 137,
  mediaUnreachable: 138,
  approval: 139,
  notLinked: 156,
  textTooLong: 157,
  xAppMissing: 170,
  injectedFailure: 199,
  deleteUnsupported: 301,
  notPublished: 302,
  copyDeleted: 303,
} as const;

export const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
export const capitalise = (s: string) => (s === 'tiktok' ? 'TikTok' : s === 'youtube' ? 'YouTube' : s === 'linkedin' ? 'LinkedIn' : s.charAt(0).toUpperCase() + s.slice(1));

export function error(status: number, code: number, message: string, extra: Record<string, unknown> = {}): SandboxResponse {
  return { status, body: { action: extra.action ?? 'request', status: 'error', code, message, ...extra } };
}

export const ROUTES: SandboxRoute[] = [
  ['GET', /^\/api\/user\/?$/, 'GET /api/user'],
  ['POST', /^\/api\/post\/?$/, 'POST /api/post'],
  ['PATCH', /^\/api\/post\/?$/, 'PATCH /api/post'],
  // Ayrshare's own SDK updates with PUT: both verbs edit.
  ['PUT', /^\/api\/post\/?$/, 'PUT /api/post'],
  ['PUT', /^\/api\/post\/retry\/?$/, 'PUT /api/post/retry'],
  ['DELETE', /^\/api\/post\/?$/, 'DELETE /api/post'],
  ['GET', /^\/api\/post\/[^/]+\/?$/, 'GET /api/post/:id'],
  ['GET', /^\/api\/history\/?$/, 'GET /api/history'],
  [
    'GET',
    new RegExp(`^/api/history/(${PROVIDER_A_PLATFORMS.join('|')})/?$`),
    'GET /api/history/:platform',
  ],
  ['GET', /^\/api\/history\/[^/]+\/?$/, 'GET /api/history/:id'],
  ['POST', /^\/api\/analytics\/post\/?$/, 'POST /api/analytics/post'],
  ['POST', /^\/api\/analytics\/social\/?$/, 'POST /api/analytics/social'],
];
