/**
 * The analytics overview: what the last sync of each connected provider stored, cut to the window
 * and added up, and broken down per video, hook and channel. No provider is called, so it is fast and
 * never fails upstream: our posts name the videos, the videos' jobs their hooks.
 */
import { buildOverview, overviewWindow, type AnalyticsOverview, type BreakdownSources, type CachedAnalytics } from '#domain/analytics';
import { postIdsNamed, type KnownChannel, type OurPost, type VideoFacts } from '#domain/analytics-breakdowns';
import type { Connection } from '#domain/social';
import type { Ports } from '#ports/ports';

export type AnalyticsOverviewDeps = Pick<Ports, 'connections' | 'analytics' | 'posts' | 'videos' | 'jobs' | 'products'>;

/** Our posts are read newest first, a page at a time, until every post the figures name is found. */
const POSTS_PAGE = 100;
const POSTS_PAGES_MAX = 10;
/** Videos named at once: each costs a read of the video, its job and its product. */
const VIDEO_READS_AT_ONCE = 8;

export async function analyticsOverview(deps: AnalyticsOverviewDeps, input: { accountId: number; days: number; now: Date }): Promise<AnalyticsOverview> {
  const [linked, cached] = await Promise.all([deps.connections.list(input.accountId), deps.analytics.list(input.accountId)]);
  const connected = linked.map((c) => c.provider);
  const sources = await breakdownSources(deps, input, linked, cached.filter((c) => connected.includes(c.provider)));
  return buildOverview(input.days, input.now, connected, cached, sources);
}

async function breakdownSources(
  deps: AnalyticsOverviewDeps,
  input: { accountId: number; days: number; now: Date },
  linked: readonly Connection[],
  cached: readonly CachedAnalytics[],
): Promise<BreakdownSources> {
  const channels: KnownChannel[] = linked.flatMap((c) => c.channels.map((ch) => ({ provider: c.provider, id: ch.id, platform: ch.platform, name: ch.name })));
  const { since, until } = overviewWindow(input.days, input.now);
  const wanted = postIdsNamed(cached.map((c) => ({ provider: c.provider, posts: c.posts ?? [] })), since, until);
  const ours = wanted.size === 0 ? [] : await postsNamed(deps, input.accountId, wanted);
  const videos = await videoFacts(deps, input.accountId, [...new Set(ours.map((p) => p.video_id))]);
  return { ours, videos, channels };
}

async function postsNamed(deps: AnalyticsOverviewDeps, accountId: number, wanted: Set<string>): Promise<OurPost[]> {
  const found: OurPost[] = [];
  for (let page = 1; page <= POSTS_PAGES_MAX && found.length < wanted.size; page++) {
    const slice = await deps.posts.list(accountId, page, POSTS_PAGE);
    for (const post of slice.items) {
      if (wanted.has(`${post.provider}:${post.provider_post_id}`)) found.push(post);
    }
    if (page * POSTS_PAGE >= slice.total || slice.items.length === 0) break;
  }
  return found;
}

async function videoFacts(deps: AnalyticsOverviewDeps, accountId: number, videoIds: readonly number[]): Promise<VideoFacts[]> {
  const facts: VideoFacts[] = [];
  for (let i = 0; i < videoIds.length; i += VIDEO_READS_AT_ONCE) {
    facts.push(...(await Promise.all(videoIds.slice(i, i + VIDEO_READS_AT_ONCE).map((id) => factsOf(deps, accountId, id)))));
  }
  return facts;
}

/** A deleted video (or job, or product) leaves its figures unnamed rather than failing the page. */
async function factsOf(deps: AnalyticsOverviewDeps, accountId: number, videoId: number): Promise<VideoFacts> {
  const video = await deps.videos.get(accountId, videoId);
  if (!video) return { video_id: videoId, product_name: null, hook_text: null };
  const [job, product] = await Promise.all([deps.jobs.get(accountId, video.job_id), deps.products.get(accountId, video.product_id)]);
  return { video_id: videoId, product_name: product?.name ?? null, hook_text: job?.hook_text ?? null };
}
