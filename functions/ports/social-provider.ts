/**
 * The scheduling-provider port (DESIGN §5): everything the social endpoints ask of provider_a
 * (modelled on Ayrshare) and provider_b (modelled on Post for Me). Adapters map each provider's own
 * contract onto these shapes; the endpoints never see a provider's wire format.
 */

export const SOCIAL_PROVIDERS = ['provider_a', 'provider_b'] as const;
export type ProviderName = (typeof SOCIAL_PROVIDERS)[number];

/** Networks a channel can be on (the union of both providers' lists, in our spelling). */
export const PLATFORMS = ['tiktok', 'instagram', 'youtube', 'facebook', 'x', 'linkedin', 'threads', 'pinterest', 'bluesky'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** What an account gave us to act on its behalf; stored encrypted, never returned or logged. */
export interface ProviderCredentials {
  apiKey: string;
  /** provider_a only: the User Profile the key acts for (its `Profile-Key` header). */
  profileKey?: string;
  /**
   * provider_a only: the owner's own X app (consumer key and secret). Ayrshare has refused every X
   * operation without them since 2026-03-31 (`X-Twitter-OAuth1-Api-Key` / `-Secret` headers).
   */
  xApp?: { apiKey: string; apiSecret: string };
}

/** One account on one network, reached through the provider (our `account_ids` are these ids). */
export interface Channel {
  id: string;
  platform: Platform;
  /** Display name or handle. */
  name: string;
  username: string | null;
  /** Inactive channels (disconnected upstream) are listed but cannot be posted to. */
  active: boolean;
}

/** The finished video handed to the provider. */
export interface PostMedia {
  /** A presigned GET URL of the MP4 (valid long enough for the schedule, see the adapter). */
  url: string;
  /** The poster JPEG, for providers that take a thumbnail. */
  thumbnailUrl: string | null;
  sizeBytes: number;
  fileName: string;
}

export interface CreatePostInput {
  caption: string;
  channels: readonly Channel[];
  media: PostMedia;
  /** null: publish now. */
  scheduleAt: Date | null;
  draft: boolean;
  /** Our post id, for correlation and safe retries upstream. */
  externalId: string;
}

export const POST_STATUSES = ['draft', 'scheduled', 'publishing', 'published', 'partially_published', 'failed', 'deleted'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/** Post states after which nothing changes upstream by itself: no more refreshing. */
export const FINAL_POST_STATUSES: readonly PostStatus[] = ['published', 'partially_published', 'failed', 'deleted'];

export interface ChannelResult {
  channelId: string;
  platform: Platform;
  status: 'pending' | 'published' | 'failed' | 'deleted';
  /** The post on the network, once published. */
  url: string | null;
  error: string | null;
}

export interface ProviderPost {
  providerPostId: string;
  status: PostStatus;
  results: ChannelResult[];
}

export interface AnalyticsDay {
  /** YYYY-MM-DD (UTC). */
  date: string;
  views: number;
  likes: number;
  comments: number;
  shares: number;
  posts: number;
}

export interface ProviderAnalytics {
  totals: Omit<AnalyticsDay, 'date'>;
  /** One entry per day of the window that had activity, oldest first. */
  daily: AnalyticsDay[];
  /** Channels whose figures could not be read this time (the others still count), with why. */
  skipped?: { channelId: string; reason: string }[];
}

/** Whether the provider's delete rule allows removing a post in this state (checked before any call). */
export type DeleteVerdict = { allowed: true } | { allowed: false; reason: string };

export interface SocialProvider {
  readonly name: ProviderName;
  listChannels(credentials: ProviderCredentials, options?: { signal?: AbortSignal }): Promise<Channel[]>;
  createPost(credentials: ProviderCredentials, input: CreatePostInput, options?: { signal?: AbortSignal }): Promise<ProviderPost>;
  getPost(credentials: ProviderCredentials, providerPostId: string, options?: { signal?: AbortSignal }): Promise<ProviderPost>;
  deleteRule(post: Pick<ProviderPost, 'status' | 'results'>): DeleteVerdict;
  deletePost(credentials: ProviderCredentials, providerPostId: string, options?: { signal?: AbortSignal }): Promise<void>;
  analytics(credentials: ProviderCredentials, window: { days: number; now: Date }, options?: { signal?: AbortSignal }): Promise<ProviderAnalytics>;
}

export type ProviderErrorKind =
  /** Our stored key was refused: the account must reconnect. */
  | 'auth'
  /** Still rate limited after our retries. */
  | 'rate_limited'
  /** 5xx or network trouble after our retries. */
  | 'unavailable'
  | 'timeout'
  /** The provider refused the request's content (its validation): the user can fix it. */
  | 'rejected'
  | 'not_found'
  /** The provider refused because of the post's state (e.g. delete of a processed post). */
  | 'conflict'
  /** The provider answered something outside its documented contract. */
  | 'bad_response';

export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly provider: ProviderName;
  readonly status: number | null;
  readonly retryAfterS: number | null;

  constructor(provider: ProviderName, kind: ProviderErrorKind, message: string, options: { status?: number; retryAfterS?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'ProviderError';
    this.provider = provider;
    this.kind = kind;
    this.status = options.status ?? null;
    this.retryAfterS = options.retryAfterS ?? null;
  }
}

export const isProviderError = (error: unknown): error is ProviderError => error instanceof ProviderError;
