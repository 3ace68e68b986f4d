/**
 * Who a provider_a key is: its profiles (created on first use, with the default platforms linked),
 * the accounts each shows on every network (derived from the key, so the same on every start),
 * where a post's network copy lives, and GET /user.
 */
import { hashDigits, hashInt, hashToken, networkPost, type SandboxResponse } from '../sandbox-kit';
import { PROVIDER_A_KEY_PREFIX, capitalise, iso, type StoredPost, type StoredProfile } from './contract';
import type { ProviderAState } from './state';

export function profileOf(s: ProviderAState, apiKey: string, profileKey: string | null): StoredProfile {
  const key = `${apiKey}\n${profileKey ?? ''}`;
  let profile = s.profiles.get(key);
  if (!profile) {
    profile = { key, apiKey, profileKey, platforms: [...s.defaultPlatforms], idempotency: {} };
    s.profiles.set(key, profile);
    s.dirty = true;
  }
  return profile;
}

/** `demo` for `sandbox_a_demo`; a profile key adds a short stable suffix. */
export function handleOf(profile: StoredProfile): string {
  const base = profile.apiKey.slice(PROVIDER_A_KEY_PREFIX.length).toLowerCase().replace(/[^a-z0-9_]/g, '').slice(0, 18) || 'sandbox';
  return profile.profileKey ? `${base}_${hashToken(profile.profileKey, 4).toLowerCase()}` : base;
}

function accountOf(profile: StoredProfile, platform: string) {
  const seed = `${profile.key}:${platform}`;
  const username = `${handleOf(profile)}_${platform}`;
  const id = platform === 'youtube' ? `UC${hashToken(seed, 22)}` : hashDigits(seed, platform === 'facebook' ? 15 : 17);
  const profileUrl =
    platform === 'tiktok' ? `https://www.tiktok.com/@${username}`
    : platform === 'instagram' ? `https://www.instagram.com/${username}`
    : platform === 'youtube' ? `https://www.youtube.com/@${username}`
    : platform === 'facebook' ? `https://www.facebook.com/${id}`
    : platform === 'twitter' ? `https://x.com/${username}`
    : platform === 'threads' ? `https://www.threads.net/@${username}`
    : platform === 'bluesky' ? `https://bsky.app/profile/${username}.bsky.social`
    : platform === 'linkedin' ? `https://www.linkedin.com/in/${username}`
    : `https://www.${platform}.com/${username}`;
  // A fixed past date per account, so it reads the same on every start.
  const created = iso(Date.UTC(2024, 0, 1) + (hashInt(seed) % 365) * 86_400_000);
  return {
    platform,
    id,
    displayName: `${capitalise(handleOf(profile))} on ${capitalise(platform)}`,
    username,
    profileUrl,
    userImage: `https://api.dicebear.com/9.x/avataaars/png?seed=${encodeURIComponent(username)}`,
    created,
  };
}

export const X_APP_MESSAGE = 'X/Twitter requires your own X app: send X-Twitter-OAuth1-Api-Key and X-Twitter-OAuth1-Api-Secret.';

export function networkCopy(profile: StoredProfile, post: StoredPost, platform: string): { id: string; postUrl: string } {
  const copy = networkPost(platform, `${post.id}:${platform}`, accountOf(profile, platform));
  return { id: copy.id, postUrl: copy.url };
}

export const refIdOf = (profile: StoredProfile) => hashToken(`ref:${profile.key}`, 40).toLowerCase();

export function user(profile: StoredProfile): SandboxResponse {
  const body: Record<string, unknown> = {
    displayNames: profile.platforms.map((p) => accountOf(profile, p)),
    title: profile.profileKey ? `Profile ${handleOf(profile)}` : 'Primary Profile',
    refId: refIdOf(profile),
  };
  if (profile.platforms.length > 0) body.activeSocialAccounts = [...profile.platforms];
  return { status: 200, body };
}
