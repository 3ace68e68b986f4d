/**
 * A scheduling provider in memory: it lists the channels it was given, keeps the posts it accepted
 * (a post is published when a test says so), applies a delete rule of drafts and scheduled posts
 * only, and fails any method a test names, with the error it names. As a provider does, it keeps
 * each account's posts apart (an account is a key and profile) and refuses keys it was told are
 * revoked as auth. Every call is recorded. It keeps test/support/social-provider-contract.ts.
 */
import type { AnalyticsDay, ProviderAnalytics } from '#domain/analytics';
import type { Channel, ProviderCredentials, ProviderName } from '#domain/social';
import type { PostStatus, ProviderPost } from '#domain/social-post';
import { ProviderError, type CreatePostInput, type DeleteVerdict, type SocialProvider, type SocialProviders } from '#ports/social-provider';

type Method = 'listChannels' | 'createPost' | 'getPost' | 'deletePost' | 'analytics';

export interface ProviderCall {
  method: Method;
  credentials: ProviderCredentials;
  /** The post input, post id, or analytics window of the call. */
  input?: unknown;
}

/** A provider account: the key, and the profile under it (provider_a's Profile-Key). */
const accountOf = (credentials: ProviderCredentials) => `${credentials.apiKey}\u0000${credentials.profileKey ?? ''}`;

const DELETABLE: readonly PostStatus[] = ['draft', 'scheduled'];
const NO_FIGURES: ProviderAnalytics = { totals: { views: 0, likes: 0, comments: 0, shares: 0, posts: 0 }, daily: [] };

export class FakeSocialProvider implements SocialProvider {
  readonly calls: ProviderCall[] = [];
  readonly posts = new Map<string, ProviderPost>();
  channels: Channel[];
  figures: ProviderAnalytics = NO_FIGURES;
  private readonly failures = new Map<Method, { error: unknown; once: boolean }>();
  /** Whose each post is (accountOf its credentials): another account does not find it. */
  private readonly owners = new Map<string, string>();
  private readonly refusedKeys = new Set<string>();

  constructor(
    readonly name: ProviderName,
    channels: Channel[] = [],
  ) {
    this.channels = channels;
  }

  /** `method` throws `error` until `recover(method)`. */
  fail(method: Method, error: unknown): void {
    this.failures.set(method, { error, once: false });
  }

  /** `method`'s next call throws `error`; the one after answers again. */
  failNext(method: Method, error: unknown): void {
    this.failures.set(method, { error, once: true });
  }

  /** Every call with this key is refused as auth from now on (the key was revoked upstream). */
  refuseKey(apiKey: string): void {
    this.refusedKeys.add(apiKey);
  }

  /** A ProviderError of this provider, for `fail`. */
  error(kind: ProviderError['kind'], message = `${this.name} says ${kind}`, options: { retryAfterS?: number } = {}): ProviderError {
    return new ProviderError(this.name, kind, message, options);
  }

  recover(method: Method): void {
    this.failures.delete(method);
  }

  /** The provider moves the post on by itself (it went out, or failed). */
  settle(providerPostId: string, status: PostStatus, channelStatus: 'published' | 'failed' = 'published'): void {
    const post = this.posts.get(providerPostId)!;
    post.status = status;
    post.results = post.results.map((r) => ({ ...r, status: channelStatus, url: channelStatus === 'published' ? `https://example.test/${r.channelId}` : null }));
  }

  callsOf(method: Method): ProviderCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  async listChannels(credentials: ProviderCredentials): Promise<Channel[]> {
    this.record('listChannels', credentials);
    return structuredClone(this.channels);
  }

  async createPost(credentials: ProviderCredentials, input: CreatePostInput): Promise<ProviderPost> {
    this.record('createPost', credentials, input);
    const status: PostStatus = input.draft ? 'draft' : input.scheduleAt ? 'scheduled' : 'publishing';
    const post: ProviderPost = {
      providerPostId: `${this.name}-${input.externalId}`,
      status,
      results: input.channels.map((c) => ({ channelId: c.id, platform: c.platform, status: 'pending', url: null, error: null })),
    };
    this.posts.set(post.providerPostId, post);
    this.owners.set(post.providerPostId, accountOf(credentials));
    return structuredClone(post);
  }

  async getPost(credentials: ProviderCredentials, providerPostId: string): Promise<ProviderPost> {
    this.record('getPost', credentials, providerPostId);
    const post = this.postOf(credentials, providerPostId);
    if (!post) throw this.error('not_found', `no post ${providerPostId}`);
    return structuredClone(post);
  }

  deleteRule(post: Pick<ProviderPost, 'status' | 'results'>): DeleteVerdict {
    return DELETABLE.includes(post.status) ? { allowed: true } : { allowed: false, reason: 'only draft or scheduled posts can be deleted' };
  }

  async deletePost(credentials: ProviderCredentials, providerPostId: string): Promise<void> {
    this.record('deletePost', credentials, providerPostId);
    if (!this.postOf(credentials, providerPostId)) throw this.error('not_found', `no post ${providerPostId}`);
    this.posts.delete(providerPostId);
  }

  async analytics(credentials: ProviderCredentials, window: { days: number; now: Date }): Promise<ProviderAnalytics> {
    this.record('analytics', credentials, window);
    return structuredClone(this.figures);
  }

  private record(method: Method, credentials: ProviderCredentials, input?: unknown): void {
    this.calls.push({ method, credentials: structuredClone(credentials), input });
    const failure = this.failures.get(method);
    if (failure) {
      if (failure.once) this.failures.delete(method);
      throw failure.error;
    }
    if (this.refusedKeys.has(credentials.apiKey)) throw this.error('auth', 'the API key was refused');
  }

  /** The post, when the account of `credentials` made it (a post put in `posts` by a test is anyone's). */
  private postOf(credentials: ProviderCredentials, providerPostId: string): ProviderPost | undefined {
    const owner = this.owners.get(providerPostId);
    return owner === undefined || owner === accountOf(credentials) ? this.posts.get(providerPostId) : undefined;
  }
}

/** The SocialProviders port over fakes of both providers. */
export function fakeSocial(): { social: SocialProviders; provider_a: FakeSocialProvider; provider_b: FakeSocialProvider } {
  const fakes = { provider_a: new FakeSocialProvider('provider_a'), provider_b: new FakeSocialProvider('provider_b') };
  return { ...fakes, social: (name) => fakes[name] };
}

/** One day's figures, zeros where not given. */
export const day = (date: string, figures: Partial<Omit<AnalyticsDay, 'date'>> = {}): AnalyticsDay => ({
  date,
  views: 0,
  likes: 0,
  comments: 0,
  shares: 0,
  posts: 0,
  ...figures,
});
