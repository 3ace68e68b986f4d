/** provider_a's GET /history (the profile's posts, filtered and windowed) and GET /history/:platform (what the network shows). */
import type { SandboxResponse } from '../sandbox-kit';
import { CODES, POST_STATUSES, capitalise, error, iso, type StoredPost, type StoredProfile } from './contract';
import { X_APP_MESSAGE, refIdOf } from './identities';
import { settle, view } from './lifecycle';
import type { ProviderAState } from './state';

export function history(s: ProviderAState, profile: StoredProfile, query: URLSearchParams): SandboxResponse {
  const int = (name: string, fallback: number, min: number, max: number): number | null => {
    const raw = query.get(name);
    if (raw === null || raw === '') return fallback;
    if (!/^\d+$/.test(raw)) return null;
    const n = Number(raw);
    return n >= min && n <= max ? n : null;
  };
  const lastDays = int('lastDays', 30, 0, 100_000);
  const limit = int('limit', 25, 1, 1000);
  const lastRecords = int('lastRecords', 0, 1, 1000);
  if (lastRecords === null) return error(400, CODES.badRequest, 'lastRecords must be an integer from 1 to 1000.', { action: 'history' });
  if (lastDays === null) return error(400, CODES.badRequest, 'lastDays must be a non-negative integer (0 = all).', { action: 'history' });
  if (limit === null) return error(400, CODES.badRequest, 'limit must be an integer from 1 to 1000.', { action: 'history' });
  const status = query.get('status');
  if (status !== null && !(POST_STATUSES as readonly string[]).includes(status)) return error(400, CODES.badRequest, `Unknown status: ${status}.`, { action: 'history' });
  const type = query.get('type');
  if (type !== null && type !== 'immediate' && type !== 'scheduled') return error(400, CODES.badRequest, 'type must be immediate or scheduled.', { action: 'history' });
  const platforms = query.get('platforms')?.split(',').map((p) => p.trim()).filter(Boolean);
  const now = s.clock.now();
  // lastRecords (the newest N) replaces the day window; the window counts from when a post went
  // out (or is due to), not from when it was created.
  const since = lastRecords > 0 || lastDays === 0 ? Number.NEGATIVE_INFINITY : now - lastDays * 86_400_000;
  const found = [...s.posts.values()]
    .filter((p) => p.profile === profile.key)
    .map((p) => settle(s, p))
    .filter((p) => publishDateOf(p) >= since)
    .filter((p) => (status ? p.status === status : p.status !== 'deleted'))
    .filter((p) => !type || (type === 'scheduled') === (p.scheduleDate !== null))
    .filter((p) => !platforms || p.platforms.some((x) => platforms.includes(x)))
    .sort((a, b) => publishDateOf(b) - publishDateOf(a) || (a.id < b.id ? 1 : -1))
    .slice(0, lastRecords > 0 ? lastRecords : limit)
    .map((p) => view(s, p));
  return { status: 200, body: { history: found, count: found.length, refId: refIdOf(profile), lastUpdated: iso(now), nextUpdate: iso(now + 60_000) } };
}

const publishDateOf = (post: StoredPost) => post.publishedAt ?? post.scheduleDate ?? post.created;

/** GET /history/:platform: what the network itself shows of this profile (published copies only). */
export function platformHistory(s: ProviderAState, profile: StoredProfile, platform: string, xApp: boolean): SandboxResponse {
  if (!profile.platforms.includes(platform)) return error(400, CODES.notLinked, `${capitalise(platform)} is not linked.`, { action: 'history', platform });
  if (platform === 'twitter' && !xApp) return error(400, CODES.xAppMissing, X_APP_MESSAGE, { action: 'history', platform });
  const now = s.clock.now();
  const copies = [...s.posts.values()]
    .filter((p) => p.profile === profile.key)
    .map((p) => settle(s, p))
    .flatMap((p) =>
      p.postIds
        .filter((c) => c.platform === platform && c.status === 'success' && c.id !== 'pending')
        .map((c) => ({ id: c.id, post: p.post, postUrl: c.postUrl, created: iso(p.publishedAt!), ayrshareId: p.id })),
    )
    .sort((x, y) => (x.created < y.created ? 1 : -1));
  return { status: 200, body: { status: 'success', platform, posts: copies, lastUpdated: iso(now), nextUpdate: iso(now + 60_000) } };
}
