/**
 * provider_b's account feeds (GET /v1/social-account-feeds/:id): an account's published posts, cursor
 * paged, with each network's own metric names when `expand=metrics`, derived from the time since publish.
 */
import { engagement, type SandboxResponse } from '../sandbox-kit';
import { fail, invalid, iso, type StoredKey, type StoredResult } from './contract';
import { ownResults } from './lifecycle';
import { multi } from './listing';
import type { ProviderBState } from './state';

function feedMetrics(s: ProviderBState, result: StoredResult): Record<string, number> {
  const m = engagement(`${result.post_id}:${result.social_account_id}`, result.postedAt, s.clock.now());
  switch (result.platform) {
    case 'tiktok':
    case 'tiktok_business':
      return { view_count: m.views, like_count: m.likes, comment_count: m.comments, share_count: m.shares };
    case 'instagram':
      return { views: m.views, likes: m.likes, comments: m.comments, shares: m.shares, reach: m.reach, saved: m.saves };
    case 'youtube':
      return { views: m.views, likes: m.likes, dislikes: Math.floor(m.likes * 0.03), comments: m.comments, favorites: m.saves };
    case 'facebook':
      return { video_views: m.views, reactions_total: m.likes, comments: m.comments, shares: m.shares, reach: m.reach };
    case 'x':
      return { impression_count: m.views, like_count: m.likes, reply_count: m.comments, retweet_count: m.shares, quote_count: Math.floor(m.shares / 3) };
    default:
      return { views: m.views, likes: m.likes, comments: m.comments, shares: m.shares };
  }
}

export function feed(s: ProviderBState, owner: StoredKey, accountId: string, url: URL): SandboxResponse {
  // Post for Me's feed handler answers any failure (unknown account, expired token, the network's
  // API down) with a bare 500, and a plan without feeds with a 401.
  if (owner.legacyPlan) return fail(401, 'This feature requires new_pricing plan');
  const account = owner.accounts.find((a) => a.id === accountId);
  if (!account || account.status !== 'connected' || owner.failingFeeds?.includes(account.id)) return fail(500, 'Internal server error');
  const q = url.searchParams;
  const rawLimit = q.get('limit');
  const limit = rawLimit === null || rawLimit === '' ? 50 : /^\d+$/.test(rawLimit) ? Number(rawLimit) : Number.NaN;
  if (!(limit >= 1 && limit <= 100)) return invalid(['limit must be an integer from 1 to 100']);
  let offset = 0;
  const cursor = q.get('cursor');
  if (cursor) {
    try {
      const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown };
      if (typeof decoded.o !== 'number' || !Number.isInteger(decoded.o) || decoded.o < 0) throw new Error('bad');
      offset = decoded.o;
    } catch {
      return invalid(['cursor is not valid']);
    }
  }
  const expand = multi(q, 'expand') ?? [];
  const [postIds, platformPostIds, externalIds] = [multi(q, 'social_post_id'), multi(q, 'platform_post_id'), multi(q, 'external_post_id')];
  const items = ownResults(s, owner)
    .filter((r) => r.social_account_id === account.id && r.success)
    .filter((r) => !postIds || postIds.includes(r.post_id))
    .filter((r) => !platformPostIds || (r.platform_data.id !== undefined && platformPostIds.includes(r.platform_data.id)))
    .filter((r) => !externalIds || externalIds.includes(s.posts.get(r.post_id)?.externalId ?? ''))
    .sort((a, b) => b.postedAt - a.postedAt || (a.id < b.id ? 1 : -1));
  const pageItems = items.slice(offset, offset + limit).map((r) => {
    const post = s.posts.get(r.post_id);
    return {
      platform: r.platform,
      social_account_id: r.social_account_id,
      platform_account_id: account.user_id,
      platform_post_id: r.platform_data.id!,
      platform_url: r.platform_data.url!,
      caption: post?.caption ?? '',
      media: (post?.media ?? []).map((m) => ({ ...m })),
      posted_at: iso(r.postedAt),
      social_post_id: r.post_id,
      social_post_result_id: r.id,
      external_post_id: post?.externalId ?? null,
      ...(expand.includes('metrics') ? { metrics: feedMetrics(s, r) } : {}),
    };
  });
  const hasMore = offset + limit < items.length;
  // The last page's cursor is "" (the service sends `cursor || ''`), never null.
  const nextCursor = hasMore ? Buffer.from(JSON.stringify({ o: offset + limit })).toString('base64url') : '';
  let next: string | null = null;
  if (nextCursor) {
    const nextUrl = new URL(url.pathname + url.search, s.origin);
    nextUrl.searchParams.set('cursor', nextCursor);
    next = nextUrl.toString();
  }
  return { status: 200, body: { data: pageItems, meta: { cursor: nextCursor, limit, next, has_more: hasMore } } };
}
