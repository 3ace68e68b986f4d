/**
 * provider_a's analytics: POST /analytics/post (a post's copies, with each network's own field names)
 * and POST /analytics/social (the profile's accounts), all derived from the time since publish.
 */
import { engagement, hashInt, type SandboxResponse } from '../sandbox-kit';
import { CODES, capitalise, error, iso, type StoredPost, type StoredProfile } from './contract';
import { X_APP_MESSAGE } from './identities';
import { findPost, settle } from './lifecycle';
import type { ProviderAState } from './state';

function metricsOf(s: ProviderAState, platform: string, post: StoredPost): Record<string, unknown> {
  const until = Math.min(s.clock.now(), post.deletedAt[platform] ?? Number.POSITIVE_INFINITY);
  const m = engagement(`${post.id}:${platform}`, post.publishedAt!, until);
  switch (platform) {
    case 'tiktok':
      return { videoViews: m.views, likes: m.likes, comments: m.comments, shares: m.shares, reach: m.reach };
    case 'instagram':
      return { views: m.views, likeCount: m.likes, commentsCount: m.comments, sharesCount: m.shares, reachCount: m.reach, savedCount: m.saves };
    case 'youtube':
      return { views: m.views, likes: m.likes, comments: m.comments, shares: m.shares, dislikes: Math.floor(m.likes * 0.03) };
    case 'facebook': {
      const love = Math.floor(m.likes * 0.2);
      return { videoViews: m.views, reactions: { like: m.likes - love, love, total: m.likes }, commentCount: m.comments, sharesCount: m.shares, impressionsUnique: m.reach };
    }
    case 'twitter':
      return { impressionCount: m.views, likeCount: m.likes, replyCount: m.comments, retweetCount: m.shares };
    default:
      return { views: m.views, likes: m.likes, comments: m.comments, shares: m.shares };
  }
}

export function postAnalytics(s: ProviderAState, profile: StoredProfile, body: Record<string, unknown>, xApp: boolean): SandboxResponse {
  if (typeof body.id !== 'string' || body.id === '') return error(400, CODES.badRequest, 'Missing parameter: id.', { action: 'analytics' });
  let filter: string[] | undefined;
  if (body.platforms !== undefined) {
    if (!Array.isArray(body.platforms) || !body.platforms.every((p) => typeof p === 'string')) return error(400, CODES.badRequest, 'platforms must be an array of platform names.', { action: 'analytics' });
    filter = body.platforms as string[];
  }
  let post: StoredPost | undefined;
  if (body.searchPlatformId === true) {
    if (!filter || filter.length !== 1) return error(400, CODES.badRequest, 'searchPlatformId needs exactly one platform in platforms.', { action: 'analytics' });
    post = [...s.posts.values()].filter((p) => p.profile === profile.key).map((p) => settle(s, p)).find((p) => p.postIds.some((c) => c.platform === filter![0] && c.id === body.id));
  } else {
    post = findPost(s, profile, body.id);
  }
  if (!post) return error(404, CODES.notFound, `Post ID not found: ${body.id}`, { action: 'analytics' });
  const copies = post.postIds.filter((c) => (!filter || filter.includes(c.platform)) && c.id !== 'pending');
  if (post.publishedAt === null || copies.length === 0) return error(400, CODES.notPublished, 'No published post to get analytics for (not sent yet, or failed everywhere).', { action: 'analytics', id: post.id });
  const now = s.clock.now();
  const out: Record<string, unknown> = { status: 'success', id: post.id };
  for (const copy of copies) {
    out[copy.platform] =
      copy.status === 'deleted'
        ? { status: 'error', code: CODES.copyDeleted, message: `The post was deleted on ${capitalise(copy.platform)}.`, id: copy.id }
        : copy.platform === 'twitter' && !xApp
        ? { status: 'error', code: CODES.xAppMissing, message: X_APP_MESSAGE, id: copy.id }
        : { id: copy.id, postUrl: copy.postUrl, analytics: metricsOf(s, copy.platform, post), lastUpdated: iso(now), nextUpdate: iso(now + 10 * 60_000) };
  }
  return { status: 200, body: out };
}

export function socialAnalytics(s: ProviderAState, profile: StoredProfile, body: Record<string, unknown>): SandboxResponse {
  if (!Array.isArray(body.platforms) || body.platforms.length === 0 || !body.platforms.every((p) => typeof p === 'string')) {
    return error(400, CODES.badRequest, 'platforms must be a non-empty array of platform names.', { action: 'analytics' });
  }
  const out: Record<string, unknown> = { status: 'success' };
  const mine = [...s.posts.values()].filter((p) => p.profile === profile.key).map((p) => settle(s, p));
  for (const platform of body.platforms as string[]) {
    if (!profile.platforms.includes(platform)) {
      out[platform] = { status: 'error', code: CODES.notLinked, message: `${capitalise(platform)} is not linked.` };
      continue;
    }
    const published = mine.filter((p) => p.postIds.some((c) => c.platform === platform && c.status === 'success'));
    const views = published.reduce((sum, p) => sum + engagement(`${p.id}:${platform}`, p.publishedAt!, s.clock.now()).views, 0);
    const likes = published.reduce((sum, p) => sum + engagement(`${p.id}:${platform}`, p.publishedAt!, s.clock.now()).likes, 0);
    const followers = 100 + (hashInt(`${profile.key}:${platform}:followers`) % 5000) + Math.floor(views / 40);
    const analytics =
      platform === 'tiktok' ? { followerCount: followers, videoCount: published.length, likeCount: likes }
      : platform === 'instagram' ? { followersCount: followers, mediaCount: published.length }
      : platform === 'youtube' ? { subscriberCount: followers, videoCount: published.length, viewCount: views }
      : platform === 'facebook' ? { followersCount: followers, fanCount: Math.floor(followers * 0.9) }
      : { followers };
    out[platform] = { analytics };
  }
  return { status: 200, body: out };
}
