/**
 * The breakdowns a marketer acts on: which video, which hook and which channel brought the views.
 * Providers report figures per post (PostFigures, stored by each sync); our own posts say which
 * video each provider post carried, and the video's job says its hook. Posts made outside the
 * studio still count for their channel, but belong to no video or hook.
 */
import type { Platform, ProviderName } from './social';

const ENGAGEMENT_METRICS = ['views', 'likes', 'comments', 'shares'] as const;
type Engagement = Record<(typeof ENGAGEMENT_METRICS)[number], number>;

/** What a provider reports for one post on one network, as a sync stores it. */
export interface PostFigures extends Engagement {
  /** The provider's id of the post (our post's provider_post_id when the studio made it). */
  post_id: string;
  /** The channel it went out on, where the provider says (provider_b's feeds are per channel). */
  channel_id: string | null;
  /** Its network, where the provider says (provider_a's answers are per network). */
  platform: Platform | null;
  /** The UTC day it went out (YYYY-MM-DD). */
  date: string;
}

/** A sync keeps at most this many post entries (newest first): the cached item stays far below DynamoDB's 400 KB. */
export const POST_FIGURES_MAX = 1000;

export function keepNewestPosts(posts: readonly PostFigures[]): PostFigures[] {
  return [...posts].sort((a, b) => b.date.localeCompare(a.date)).slice(0, POST_FIGURES_MAX);
}

/** One of our posts, as far as the breakdowns need it. */
export interface OurPost {
  provider: ProviderName;
  provider_post_id: string;
  video_id: number;
  results: readonly { account_id: string; platform: Platform }[];
}

/** What names a video; null where the video (or its job, or product) is gone. */
export interface VideoFacts {
  video_id: number;
  product_name: string | null;
  hook_text: string | null;
}

/** A connected channel's label, from the connection's last channel listing. */
export interface KnownChannel {
  provider: ProviderName;
  id: string;
  platform: Platform;
  name: string;
}

type Figures = Engagement & { posts: number };

interface VideoBreakdown extends Figures {
  video_id: number;
  product_name: string | null;
  hook_text: string | null;
}

interface HookBreakdown extends Figures {
  hook_text: string;
  /** How many of our videos carried it. */
  videos: number;
}

interface ChannelBreakdown extends Figures {
  provider: ProviderName;
  /** null when the provider named only the network (a post not made in the studio). */
  channel_id: string | null;
  platform: Platform | null;
  /** The channel's display name, when it is still connected. */
  name: string | null;
}

export interface Breakdowns {
  by_video: VideoBreakdown[];
  by_hook: HookBreakdown[];
  by_channel: ChannelBreakdown[];
  /** The hook whose posts drew the most views in the window; null when no hooked post was viewed. */
  best_hook: HookBreakdown | null;
}

export interface BreakdownInput {
  since: string;
  until: string;
  figures: readonly { provider: ProviderName; posts: readonly PostFigures[] }[];
  ours: readonly OurPost[];
  videos: readonly VideoFacts[];
  channels: readonly KnownChannel[];
}

/** Hooks that differ only in case or spacing are one hook. */
export const hookKey = (hook: string) => hook.trim().replace(/\s+/g, ' ').toLowerCase();

/** Most views first; then most engagement; then by name, so equal rows keep one order. */
function byViews<T extends Figures>(label: (row: T) => string) {
  const engagement = (row: T) => row.likes + row.comments + row.shares;
  return (a: T, b: T) => b.views - a.views || engagement(b) - engagement(a) || label(a).localeCompare(label(b));
}

class Bucket<Row extends Figures> {
  private readonly postIds = new Set<string>();
  constructor(readonly row: Row) {}
  add(postKey: string, figures: Engagement): void {
    for (const metric of ENGAGEMENT_METRICS) this.row[metric] += Number(figures[metric]) || 0;
    if (!this.postIds.has(postKey)) {
      this.postIds.add(postKey);
      this.row.posts += 1;
    }
  }
}

function bucketOf<Row extends Figures>(buckets: Map<string, Bucket<Row>>, key: string, make: () => Row): Bucket<Row> {
  let bucket = buckets.get(key);
  if (!bucket) {
    bucket = new Bucket(make());
    buckets.set(key, bucket);
  }
  return bucket;
}

const zero = (): Figures => ({ views: 0, likes: 0, comments: 0, shares: 0, posts: 0 });

/** The channel a figure went out on: what the provider said, completed from our post's results or the connection. */
function channelOf(provider: ProviderName, figure: PostFigures, ours: OurPost | undefined, channels: readonly KnownChannel[]) {
  const mine = channels.filter((c) => c.provider === provider);
  let channelId = figure.channel_id;
  let platform = figure.platform;
  if (!channelId && platform) channelId = ours?.results.find((r) => r.platform === platform)?.account_id ?? mine.find((c) => c.platform === platform)?.id ?? null;
  if (channelId && !platform) platform = ours?.results.find((r) => r.account_id === channelId)?.platform ?? mine.find((c) => c.id === channelId)?.platform ?? null;
  const name = channelId ? (mine.find((c) => c.id === channelId)?.name ?? null) : null;
  return { channel_id: channelId, platform, name };
}

/** The three breakdowns of the figures inside [since, until], best first, and the best hook. */
export function buildBreakdowns(input: BreakdownInput): Breakdowns {
  const ours = new Map(input.ours.map((p) => [`${p.provider}:${p.provider_post_id}`, p]));
  const facts = new Map(input.videos.map((v) => [v.video_id, v]));
  const videos = new Map<string, Bucket<VideoBreakdown>>();
  const hooks = new Map<string, Bucket<HookBreakdown>>();
  const hookVideos = new Map<string, Set<number>>();
  const channels = new Map<string, Bucket<ChannelBreakdown>>();
  for (const { provider, posts } of input.figures) {
    for (const figure of posts) {
      if (figure.date < input.since || figure.date > input.until) continue;
      const postKey = `${provider}:${figure.post_id}`;
      const post = ours.get(postKey);
      const channel = channelOf(provider, figure, post, input.channels);
      const channelKey = `${provider}:${channel.channel_id ?? `network:${channel.platform ?? '?'}`}`;
      bucketOf(channels, channelKey, () => ({ provider, ...channel, ...zero() })).add(postKey, figure);
      if (!post) continue;
      const fact = facts.get(post.video_id) ?? { video_id: post.video_id, product_name: null, hook_text: null };
      bucketOf(videos, String(post.video_id), () => ({ ...fact, ...zero() })).add(postKey, figure);
      const hook = fact.hook_text?.trim();
      if (!hook) continue;
      const key = hookKey(hook);
      bucketOf(hooks, key, () => ({ hook_text: hook, videos: 0, ...zero() })).add(postKey, figure);
      const seen = hookVideos.get(key) ?? new Set<number>();
      seen.add(post.video_id);
      hookVideos.set(key, seen);
    }
  }
  const rows = <T extends Figures>(buckets: Map<string, Bucket<T>>, label: (row: T) => string) => [...buckets.values()].map((b) => b.row).sort(byViews(label));
  const by_video = rows(videos, (v) => String(v.video_id));
  for (const [key, bucket] of hooks) {
    const carried = hookVideos.get(key) ?? new Set<number>();
    bucket.row.videos = carried.size;
    // A hook spelled several ways is shown as its most viewed video spelled it.
    bucket.row.hook_text = by_video.find((v) => carried.has(v.video_id))?.hook_text?.trim() ?? bucket.row.hook_text;
  }
  const by_hook = rows(hooks, (h) => h.hook_text);
  return {
    by_video,
    by_hook,
    by_channel: rows(channels, (c) => `${c.provider}:${c.channel_id ?? c.platform ?? ''}`),
    best_hook: by_hook.find((h) => h.views > 0) ?? null,
  };
}

/** The provider post ids the figures name, per provider: the only posts of ours worth reading. */
export function postIdsNamed(figures: BreakdownInput['figures'], since: string, until: string): Set<string> {
  const ids = new Set<string>();
  for (const { provider, posts } of figures) {
    for (const figure of posts) if (figure.date >= since && figure.date <= until) ids.add(`${provider}:${figure.post_id}`);
  }
  return ids;
}
