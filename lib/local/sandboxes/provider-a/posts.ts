/**
 * provider_a's post endpoints: POST /post (validation, idempotency, the optional media check),
 * PATCH|PUT /post (edit, approve), PUT /post/retry and DELETE /post (one, bulk, all scheduled).
 */
import { isAllowedMediaUrl, isRecord, mediaReachable, parseIsoDate, randomToken, type SandboxResponse } from '../sandbox-kit';
import {
  CODES,
  NEEDS_MEDIA,
  PROVIDER_A_PLATFORMS,
  PROVIDER_A_UNDELETABLE,
  TEXT_LIMITS,
  capitalise,
  error,
  type ProviderAError,
  type StoredPost,
  type StoredProfile,
} from './contract';
import { X_APP_MESSAGE } from './identities';
import { createdAnswer, findPost, sendCopy, settle } from './lifecycle';
import type { ProviderAState } from './state';

/** PUT /post/retry: a failed post's failed networks are tried again, with this request's X app. */
export function retryPost(s: ProviderAState, profile: StoredProfile, body: Record<string, unknown>, xApp: boolean): SandboxResponse {
  if (typeof body.id !== 'string' || body.id === '') return error(400, CODES.badRequest, 'Missing parameter: id.', { action: 'retry' });
  const post = findPost(s, profile, body.id);
  if (!post) return error(404, CODES.notFound, `Post ID not found: ${body.id}`, { action: 'retry' });
  if (post.status !== 'error') {
    return error(400, CODES.badRequest, `Only a post in status "error" can be retried (this one is "${post.status}").`, { action: 'retry', id: post.id });
  }
  const failed = post.errors.map((e) => e.platform);
  post.errors = [];
  post.xApp = xApp;
  for (const platform of failed) sendCopy(s, post, platform, s.clock.now());
  post.status = post.errors.length > 0 ? 'error' : 'success';
  s.dirty = true;
  return createdAnswer(s, post);
}

export async function createPost(s: ProviderAState, profile: StoredProfile, body: Record<string, unknown>, xApp: boolean): Promise<SandboxResponse> {
  const idemKey = body.idempotencyKey;
  if (idemKey !== undefined && (typeof idemKey !== 'string' || idemKey.length === 0 || idemKey.length > 255)) {
    return error(400, CODES.badRequest, 'idempotencyKey must be a string of 1 to 255 characters.', { action: 'post' });
  }
  if (typeof idemKey === 'string') {
    const existing = s.posts.get(profile.idempotency[idemKey] ?? '');
    if (existing) return createdAnswer(s, existing);
  }

  if (typeof body.post !== 'string') return error(400, CODES.badRequest, 'Missing or invalid parameter: post (a string, "" allowed).', { action: 'post' });
  let platforms: string[];
  if (body.platforms === 'all') platforms = [...profile.platforms];
  else if (Array.isArray(body.platforms) && body.platforms.length > 0 && body.platforms.every((p) => typeof p === 'string')) platforms = [...new Set(body.platforms as string[])];
  else return error(400, CODES.badRequest, 'Missing or invalid parameter: platforms (a non-empty array of platform names, or "all").', { action: 'post' });
  const unknown = platforms.filter((p) => !(PROVIDER_A_PLATFORMS as readonly string[]).includes(p));
  if (unknown.length > 0) return error(400, CODES.badRequest, `Unknown platform: ${unknown.join(', ')}.`, { action: 'post' });
  if (platforms.length === 0) return error(400, CODES.notLinked, 'No social networks are linked to this profile.', { action: 'post' });
  const notLinked = platforms.filter((p) => !profile.platforms.includes(p));
  if (notLinked.length > 0) {
    return error(400, CODES.notLinked, `Not linked: ${notLinked.join(', ')}. Link the account in the dashboard first.`, {
      action: 'post',
      errors: notLinked.map((platform) => ({ action: 'post', status: 'error', code: CODES.notLinked, message: `${capitalise(platform)} is not linked.`, platform })),
    });
  }

  const mediaUrls = body.mediaUrls ?? [];
  if (!Array.isArray(mediaUrls) || !mediaUrls.every((u) => typeof u === 'string')) return error(400, CODES.badRequest, 'mediaUrls must be an array of URL strings.', { action: 'post' });
  const badUrl = (mediaUrls as string[]).find((u) => !isAllowedMediaUrl(u));
  if (badUrl !== undefined) return error(400, CODES.badRequest, `mediaUrls must be https URLs (plain http only on loopback in the sandbox): ${badUrl}`, { action: 'post' });
  if (body.isVideo !== undefined && typeof body.isVideo !== 'boolean') return error(400, CODES.badRequest, 'isVideo must be a boolean.', { action: 'post' });
  if (body.requiresApproval !== undefined && typeof body.requiresApproval !== 'boolean') return error(400, CODES.badRequest, 'requiresApproval must be a boolean.', { action: 'post' });

  let scheduleDate: number | null = null;
  if (body.scheduleDate !== undefined && body.scheduleDate !== null) {
    const parsed = typeof body.scheduleDate === 'string' && /Z$/.test(body.scheduleDate) ? parseIsoDate(body.scheduleDate) : null;
    if (parsed === null) return error(400, CODES.badRequest, 'scheduleDate must be an ISO-8601 UTC date-time, e.g. 2026-07-08T12:30:00Z.', { action: 'post' });
    if (parsed <= s.clock.now()) return error(400, CODES.scheduleInPast, `scheduleDate ${body.scheduleDate} is not in the future.`, { action: 'post' });
    scheduleDate = parsed;
  }

  for (const platform of platforms) {
    if (NEEDS_MEDIA.has(platform) && mediaUrls.length === 0) return error(400, CODES.badRequest, `${capitalise(platform)} requires a video or image in mediaUrls.`, { action: 'post', platform });
    const limit = TEXT_LIMITS[platform];
    if (limit !== undefined && body.post.length > limit) {
      return error(400, CODES.textTooLong, `The post is ${body.post.length} characters; ${capitalise(platform)} allows ${limit}.`, { action: 'post', platform });
    }
  }
  if (platforms.includes('youtube')) {
    const title = isRecord(body.youTubeOptions) ? body.youTubeOptions.title : undefined;
    if (typeof title !== 'string' || title.trim() === '' || title.length > 100) {
      return error(400, CODES.badRequest, 'youTubeOptions.title (1 to 100 characters) is required when posting to YouTube.', { action: 'post', platform: 'youtube' });
    }
  }

  const mediaOk = true;
  if (s.checkMedia) {
    for (const url of mediaUrls as string[]) {
      if (!(await mediaReachable(url))) return error(400, CODES.mediaUnreachable, `The media URL could not be retrieved: ${url}`, { action: 'post' });
    }
  }
  // The check awaited: a concurrent retry with the same key may have created the post meanwhile.
  if (typeof idemKey === 'string') {
    const existing = s.posts.get(profile.idempotency[idemKey] ?? '');
    if (existing) return createdAnswer(s, existing);
  }

  const now = s.clock.now();
  const requiresApproval = body.requiresApproval === true;
  const post: StoredPost = {
    id: randomToken(20),
    profile: profile.key,
    post: body.post,
    platforms,
    mediaUrls: [...(mediaUrls as string[])],
    isVideo: body.isVideo === true,
    scheduleDate,
    requiresApproval,
    approved: false,
    status: requiresApproval ? 'awaiting approval' : 'pending',
    created: now,
    publishAt: requiresApproval ? null : (scheduleDate ?? now),
    publishedAt: null,
    postIds: [],
    errors: [],
    deletedAt: {},
    mediaOk,
    xApp,
  };
  s.posts.set(post.id, post);
  if (typeof idemKey === 'string') profile.idempotency[idemKey] = post.id;
  s.dirty = true;
  return createdAnswer(s, post);
}

export function patchPost(s: ProviderAState, profile: StoredProfile, body: Record<string, unknown>): SandboxResponse {
  if (typeof body.id !== 'string') return error(400, CODES.badRequest, 'Missing parameter: id.', { action: 'update' });
  const post = findPost(s, profile, body.id);
  if (!post) return error(404, CODES.notFound, `Post ID not found: ${body.id}`, { action: 'update' });
  const notSent = post.status === 'pending' || post.status === 'awaiting approval';
  const out: Record<string, unknown> = { status: 'success', id: post.id };
  if (body.scheduleDate !== undefined || body.post !== undefined) {
    if (!notSent) return error(400, CODES.badRequest, `A post in status "${post.status}" can no longer be edited.`, { action: 'update' });
    if (body.post !== undefined) {
      if (typeof body.post !== 'string') return error(400, CODES.badRequest, 'post must be a string.', { action: 'update' });
      post.post = body.post;
    }
    if (body.scheduleDate !== undefined) {
      const parsed = typeof body.scheduleDate === 'string' && /Z$/.test(body.scheduleDate) ? parseIsoDate(body.scheduleDate) : null;
      if (parsed === null) return error(400, CODES.badRequest, 'scheduleDate must be an ISO-8601 UTC date-time.', { action: 'update' });
      if (parsed <= s.clock.now()) return error(400, CODES.scheduleInPast, `scheduleDate ${body.scheduleDate} is not in the future.`, { action: 'update' });
      post.scheduleDate = parsed;
      if (post.status === 'pending') post.publishAt = parsed;
    }
    s.dirty = true;
  }
  if (body.approved !== undefined) {
    if (body.approved !== true) return error(400, CODES.approval, 'approved can only be set to true.', { action: 'update' });
    if (post.status !== 'awaiting approval') return error(400, CODES.approval, `The post is not awaiting approval (status "${post.status}").`, { action: 'update' });
    const now = s.clock.now();
    post.approved = true;
    post.status = 'pending';
    post.publishAt = post.scheduleDate !== null && post.scheduleDate > now ? post.scheduleDate : now;
    out.approved = true;
    s.dirty = true;
    settle(s, post);
  }
  return { status: 200, body: out };
}

/** One id of a DELETE: what it did, as Ayrshare answers it. */
function deleteOne(s: ProviderAState, profile: StoredProfile, id: unknown, manual: boolean, xApp: boolean): SandboxResponse {
  if (typeof id !== 'string' || id === '') return error(400, CODES.badRequest, 'Missing parameter: id.', { action: 'delete' });
  const post = findPost(s, profile, id);
  if (!post) return error(404, CODES.notFound, `Post ID not found: ${id}`, { action: 'delete' });
  if (post.status === 'deleted') return error(400, CODES.alreadyDeleted, 'The post has already been deleted.', { action: 'delete', id });
  const now = s.clock.now();
  if (manual || post.status === 'pending' || post.status === 'awaiting approval' || post.postIds.every((p) => p.status === 'deleted')) {
    // Not sent (cancelled), nothing left on any network, or marked deleted in Ayrshare only.
    post.status = 'deleted';
    post.publishAt = null;
    s.dirty = true;
    return { status: 200, body: { status: 'success', id: post.id, action: 'delete', ...(manual ? { markManualDeleted: true } : {}) } };
  }
  const out: Record<string, unknown> = { id: post.id };
  const errors: ProviderAError[] = [];
  let removed = 0;
  for (const copy of post.postIds) {
    if (copy.status === 'deleted') continue;
    if (copy.platform === 'twitter' && !xApp) {
      errors.push({ action: 'delete', status: 'error', code: CODES.xAppMissing, message: X_APP_MESSAGE, platform: copy.platform });
      out[copy.platform] = { action: 'delete', status: 'error', code: CODES.xAppMissing, message: X_APP_MESSAGE, id: copy.id };
    } else if ((PROVIDER_A_UNDELETABLE as readonly string[]).includes(copy.platform)) {
      const e: ProviderAError = {
        action: 'delete',
        status: 'error',
        code: CODES.deleteUnsupported,
        message: `${capitalise(copy.platform)} does not support deleting published posts through its API. Delete it in the ${capitalise(copy.platform)} app.`,
        platform: copy.platform,
      };
      errors.push(e);
      out[copy.platform] = { action: 'delete', status: 'error', code: e.code, message: e.message, id: copy.id };
    } else {
      copy.status = 'deleted';
      post.deletedAt[copy.platform] = now;
      removed++;
      out[copy.platform] = { action: 'delete', status: 'success', id: copy.id };
    }
  }
  if (post.postIds.every((p) => p.status === 'deleted')) post.status = 'deleted';
  s.dirty = true;
  if (errors.length === 0) return { status: 200, body: { ...out, status: 'success' } };
  // Something was removed: the request did its job where it could (200, errors listed); nothing was: 400.
  return { status: removed > 0 ? 200 : 400, body: { ...out, status: 'error', errors } };
}

export function deletePost(s: ProviderAState, profile: StoredProfile, body: Record<string, unknown>, xApp: boolean): SandboxResponse {
  const manual = body.markManualDeleted === true;
  if (body.deleteAllScheduled === true) {
    let deleted = 0;
    for (const post of s.posts.values()) {
      if (post.profile !== profile.key) continue;
      settle(s, post);
      if (post.status === 'pending' || post.status === 'awaiting approval') {
        post.status = 'deleted';
        post.publishAt = null;
        deleted++;
      }
    }
    s.dirty = true;
    return { status: 200, body: { status: 'success', action: 'delete', deleted } };
  }
  if (body.bulk !== undefined) {
    if (!Array.isArray(body.bulk) || body.bulk.length === 0) return error(400, CODES.badRequest, 'bulk must be a non-empty array of post IDs.', { action: 'delete' });
    const results = body.bulk.map((id) => deleteOne(s, profile, id, manual, xApp));
    const ok = results.every((r) => r.status === 200);
    return { status: ok ? 200 : 400, body: { status: ok ? 'success' : 'error', bulk: results.map((r) => r.body) } };
  }
  return deleteOne(s, profile, body.id, manual, xApp);
}
