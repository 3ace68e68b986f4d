/**
 * What every part of the provider_b sandbox speaks: Post for Me's platform names, the shapes of its
 * accounts, posts and results (stored and as answered), its error envelopes, and the routes it serves.
 */
import type { Sandbox, SandboxControl, SandboxOptions, SandboxResponse, SandboxRoute } from '../sandbox-kit';

export const PROVIDER_B_KEY_PREFIX = 'sandbox_b_';
export const PROVIDER_B_PLATFORMS = ['bluesky', 'facebook', 'instagram', 'linkedin', 'pinterest', 'threads', 'tiktok', 'tiktok_business', 'x', 'youtube'] as const;
export const PROVIDER_B_DEFAULT_ACCOUNTS: ReadonlyArray<{ platform: string; status: 'connected' | 'disconnected' }> = [
  { platform: 'tiktok', status: 'connected' },
  { platform: 'instagram', status: 'connected' },
  { platform: 'youtube', status: 'connected' },
  { platform: 'facebook', status: 'connected' },
  { platform: 'x', status: 'disconnected' },
];

export const NEEDS_MEDIA = new Set(['tiktok', 'tiktok_business', 'instagram', 'youtube']);

export type ProviderBPostStatus = 'draft' | 'scheduled' | 'processing' | 'processed';
export const POST_STATUSES: readonly ProviderBPostStatus[] = ['draft', 'scheduled', 'processing', 'processed'];

export interface ProviderBAccount {
  id: string;
  platform: string;
  username: string;
  user_id: string;
  status: 'connected' | 'disconnected';
  external_id: string | null;
  metadata: Record<string, unknown>;
  access_token: string;
  refresh_token: string;
  access_token_expires_at: string;
  refresh_token_expires_at: string;
  profile_photo_url: string;
}

export interface ProviderBPostView {
  id: string;
  caption: string;
  status: ProviderBPostStatus;
  scheduled_at: string | null;
  media: Array<Record<string, unknown>>;
  social_accounts: ProviderBAccount[];
  external_id: string | null;
  platform_configurations: Record<string, unknown> | null;
  account_configurations: unknown[] | null;
  created_at: string;
  updated_at: string;
}

export interface ProviderBResult {
  id: string;
  post_id: string;
  social_account_id: string;
  success: boolean;
  error: string | null;
  details: Record<string, unknown>;
  platform_data: { id?: string; url?: string };
  /** The post's media as this result used them (Post for Me's schema requires the field, null allowed). */
  media: Array<Record<string, unknown>> | null;
}

export interface StoredKey {
  apiKey: string;
  accounts: ProviderBAccount[];
  /** An older plan without account feeds: every feed is 401 "requires new_pricing plan". */
  legacyPlan?: boolean;
  /** Accounts whose feed fails (the network's API is down for them): 500. */
  failingFeeds?: string[];
}

export interface StoredPost {
  id: string;
  apiKey: string;
  caption: string;
  status: ProviderBPostStatus;
  scheduledAt: number | null;
  media: Array<Record<string, unknown>>;
  accountIds: string[];
  externalId: string | null;
  platformConfigurations: Record<string, unknown> | null;
  accountConfigurations: unknown[] | null;
  createdAt: number;
  updatedAt: number;
  processingSince: number | null;
  processedAt: number | null;
  mediaOk: boolean;
}

export interface StoredResult extends Omit<ProviderBResult, 'media'> {
  /** Absent in state saved before results kept their media. */
  media?: Array<Record<string, unknown>>;
  apiKey: string;
  platform: string;
  postedAt: number;
}

export interface PersistedState {
  version: 1;
  keys: StoredKey[];
  posts: StoredPost[];
  results: StoredResult[];
}

export interface ProviderBSandboxOptions extends SandboxOptions {
  /** How long a post stays `processing`. Default 3 000 ms. */
  publishDelayMs?: number;
  /** Accounts of a new key. Default tiktok, instagram, youtube, facebook connected; x disconnected. */
  defaultAccounts?: ReadonlyArray<{ platform: string; status: 'connected' | 'disconnected' }>;
  /** GET each media URL when a post is created; unreachable = failed results. Default false. */
  checkMedia?: boolean;
}

export interface ProviderBSandboxControl extends SandboxControl {
  /** Accounts of a key as the API lists them (tokens included). */
  accounts(apiKey: string): ProviderBAccount[];
  /** Connect or disconnect an account of a key, by id or by platform. */
  setAccountStatus(apiKey: string, accountIdOrPlatform: string, status: 'connected' | 'disconnected'): void;
  /** A post as GET /v1/social-posts/{id} would show it now (settled), or undefined (unknown or deleted). */
  post(id: string): ProviderBPostView | undefined;
  /** The per-account results of a post (empty until processed). */
  results(postId: string): ProviderBResult[];
  /** Make one account's feed fail (500, as Post for Me answers any feed failure); `false` heals it. */
  failFeed(apiKey: string, accountIdOrPlatform: string, failing?: boolean): void;
  /** Put a key on an older plan without feeds (every feed 401 "requires new_pricing plan"). */
  setLegacyPlan(apiKey: string, legacy: boolean): void;
}

export interface ProviderBSandbox extends Sandbox<ProviderBSandboxControl> {
  /** Base URL to put in PROVIDER_B_BASE_URL: `http://127.0.0.1:<port>` (paths start /v1). */
  url: string;
}

export const iso = (ms: number) => new Date(ms).toISOString();

export const invalid = (errors: string[]): SandboxResponse => ({ status: 400, body: { statusCode: 400, message: 'Invalid Request', errors } });
export const fail = (status: number, message: string): SandboxResponse => ({ status, body: { statusCode: status, message } });


export const ROUTES: SandboxRoute[] = [
  ['GET', /^\/v1\/social-accounts\/?$/, 'GET /v1/social-accounts'],
  ['GET', /^\/v1\/social-accounts\/[^/]+\/?$/, 'GET /v1/social-accounts/:id'],
  ['POST', /^\/v1\/social-accounts\/[^/]+\/disconnect\/?$/, 'POST /v1/social-accounts/:id/disconnect'],
  ['POST', /^\/v1\/social-posts\/?$/, 'POST /v1/social-posts'],
  ['GET', /^\/v1\/social-posts\/?$/, 'GET /v1/social-posts'],
  ['GET', /^\/v1\/social-posts\/[^/]+\/?$/, 'GET /v1/social-posts/:id'],
  ['PUT', /^\/v1\/social-posts\/[^/]+\/?$/, 'PUT /v1/social-posts/:id'],
  ['DELETE', /^\/v1\/social-posts\/[^/]+\/?$/, 'DELETE /v1/social-posts/:id'],
  ['GET', /^\/v1\/social-post-results\/?$/, 'GET /v1/social-post-results'],
  ['GET', /^\/v1\/social-post-results\/[^/]+\/?$/, 'GET /v1/social-post-results/:id'],
  ['GET', /^\/v1\/social-account-feeds\/[^/]+\/?$/, 'GET /v1/social-account-feeds/:id'],
];
