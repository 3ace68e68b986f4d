/**
 * How a provider_a post moves along the sandbox clock (settled lazily, whenever it is read): going
 * out to each network, a copy processed later, injected failures; and the views the API answers.
 */
import type { SandboxResponse } from '../sandbox-kit';
import { CODES, PROCESSED_LATER, iso, capitalise, type ProviderAPostView, type StoredPost, type StoredProfile } from './contract';
import { X_APP_MESSAGE, handleOf, networkCopy, refIdOf } from './identities';
import type { ProviderAState } from './state';

/**
 * Moves a post along the sandbox clock: a due post goes out to each network (failures per
 * platform); a copy on a network that publishes asynchronously stays `id: "pending"` for
 * `publishDelayMs`, then gets its id and URL, or fails (an injected failure is read then).
 */
export function settle(s: ProviderAState, post: StoredPost): StoredPost {
  if (post.status === 'pending' && post.publishAt !== null && s.clock.now() >= post.publishAt) publish(s, post, post.publishAt);
  for (const [platform, readyAt] of Object.entries(post.processing ?? {})) {
    if (s.clock.now() < readyAt) continue;
    delete post.processing![platform];
    const copy = post.postIds.find((c) => c.platform === platform);
    const failure = s.failing.get(platform);
    if (failure) {
      post.postIds = post.postIds.filter((c) => c !== copy);
      post.errors.push({ action: 'post', status: 'error', code: failure.code, message: failure.message, platform });
      post.status = 'error';
    } else if (copy) {
      Object.assign(copy, networkCopy(s.profiles.get(post.profile)!, post, platform));
    }
    s.dirty = true;
  }
  return post;
}

function publish(s: ProviderAState, post: StoredPost, at: number): void {
  post.postIds = [];
  post.errors = [];
  post.processing = {};
  for (const platform of post.platforms) sendCopy(s, post, platform, at);
  post.status = post.errors.length > 0 ? 'error' : 'success';
  post.publishedAt = at;
  post.publishAt = null;
  s.dirty = true;
}

/** One network's copy goes out (or fails) at `at`. */
export function sendCopy(s: ProviderAState, post: StoredPost, platform: string, at: number): void {
  const profile = s.profiles.get(post.profile)!;
  const failure = s.failing.get(platform);
  const fail = (code: number, message: string) => post.errors.push({ action: 'post', status: 'error', code, message, platform });
  if (!profile.platforms.includes(platform)) fail(CODES.notLinked, `${capitalise(platform)} is no longer linked to this profile.`);
  else if (platform === 'twitter' && !post.xApp) fail(CODES.xAppMissing, X_APP_MESSAGE);
  else if (!post.mediaOk) fail(CODES.mediaUnreachable, 'The media URL could not be retrieved at publish time.');
  else if (PROCESSED_LATER.has(platform)) {
    post.postIds.push({ platform, status: 'success', id: 'pending' });
    (post.processing ??= {})[platform] = at + s.publishDelayMs;
  } else if (failure) fail(failure.code, failure.message);
  else post.postIds.push({ platform, status: 'success', ...networkCopy(profile, post, platform) });
}

export function view(s: ProviderAState, post: StoredPost): ProviderAPostView {
  settle(s, post);
  const profile = s.profiles.get(post.profile)!;
  return {
    id: post.id,
    status: post.status,
    post: post.post,
    platforms: [...post.platforms],
    mediaUrls: [...post.mediaUrls],
    postIds: post.postIds.map((p) => ({ ...p })),
    errors: post.errors.map((e) => ({ ...e })),
    scheduleDate: post.scheduleDate === null ? null : iso(post.scheduleDate),
    created: iso(post.created),
    type: post.scheduleDate === null ? 'now' : 'scheduled',
    requiresApproval: post.requiresApproval,
    approved: post.approved,
    refId: refIdOf(profile),
    profileTitle: profile.profileKey ? `Profile ${handleOf(profile)}` : 'Primary Profile',
  };
}


export function createdAnswer(s: ProviderAState, post: StoredPost): SandboxResponse {
  const v = view(s, post);
  // A post sent now is answered with its outcome per network (an asynchronous network's copy with
  // id "pending"); a scheduled one with "scheduled"; a held one with "awaiting approval".
  const status = v.status === 'pending' ? 'scheduled' : v.status;
  return {
    status: status === 'error' ? 400 : 200,
    body: {
      status,
      id: v.id,
      refId: v.refId,
      post: v.post,
      platforms: v.platforms,
      postIds: v.postIds,
      errors: v.errors,
      scheduleDate: v.scheduleDate,
      type: v.type,
      ...(post.requiresApproval ? { requiresApproval: true } : {}),
    },
  };
}

export function findPost(s: ProviderAState, profile: StoredProfile, id: unknown): StoredPost | undefined {
  if (typeof id !== 'string') return undefined;
  const post = s.posts.get(id);
  return post && post.profile === profile.key ? settle(s, post) : undefined;
}

/** Posts due before a change of the platform flags publish with the flags they were due under. */
export function settleAll(s: ProviderAState): void {
  for (const post of s.posts.values()) settle(s, post);
}
