/**
 * The scheduling-provider port: everything the social use cases ask of provider_a (modelled on
 * Ayrshare) and provider_b (modelled on Post for Me). Adapters map each provider's own contract onto
 * these shapes; the use cases never see a provider's wire format. The words themselves (providers,
 * platforms, channels, post states, analytics days) are the domain's.
 */
import type { ProviderAnalytics } from '#domain/analytics';
import type { Channel, ProviderCredentials, ProviderName } from '#domain/social';
import type { ProviderPost } from '#domain/social-post';

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

/** Which of a provider's APIs a use asks for: the configured one, or its sandbox. */
interface SocialRequest {
  /**
   * Test mode's calls (domain/test-mode `socialRequestOf`): the provider's sandbox, whatever the
   * stack is configured with. Where the runtime has none, the adapter fails every call as unavailable.
   */
  sandbox?: boolean;
}

/** The adapter that speaks for a provider: each runtime's wiring decides (tests pass doubles). */
export type SocialProviders = (name: ProviderName, request?: SocialRequest) => SocialProvider;

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
