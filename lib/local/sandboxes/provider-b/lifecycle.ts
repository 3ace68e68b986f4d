/**
 * How a provider_b post moves along the sandbox clock (settled lazily, whenever it is read):
 * scheduled → processing → processed with one result per account; and the views the API answers.
 */
import { randomToken } from '../sandbox-kit';
import { NEEDS_MEDIA, iso, type ProviderBPostView, type ProviderBResult, type StoredKey, type StoredPost, type StoredResult } from './contract';
import { keyOf, networkCopy } from './identities';
import type { ProviderBState } from './state';

export function settle(s: ProviderBState, post: StoredPost): StoredPost {
  const now = s.clock.now();
  if (post.status === 'scheduled' && post.scheduledAt !== null && now >= post.scheduledAt) {
    post.status = 'processing';
    post.processingSince = post.scheduledAt;
    s.dirty = true;
  }
  if (post.status === 'processing' && post.processingSince !== null && now >= post.processingSince + s.publishDelayMs) {
    const at = post.processingSince + s.publishDelayMs;
    const owner = keyOf(s, post.apiKey);
    for (const accountId of post.accountIds) {
      const account = owner.accounts.find((a) => a.id === accountId)!;
      const reason =
        account.status !== 'connected' ? 'Social account is disconnected. Reconnect it, then post again.'
        : s.failing.get(account.platform)
          ?? (NEEDS_MEDIA.has(account.platform) && post.media.length === 0 ? `${account.platform} requires a video or image.`
          : !post.mediaOk ? 'Failed to download the media from its URL.'
          : null);
      const result: StoredResult = {
        id: `spr_${randomToken(20)}`,
        apiKey: post.apiKey,
        platform: account.platform,
        postedAt: at,
        post_id: post.id,
        social_account_id: account.id,
        success: reason === null,
        error: reason,
        details: reason === null ? { posted_at: iso(at) } : { failed_at: iso(at) },
        platform_data: reason === null ? networkCopy(account, post.id) : {},
        media: post.media.map((m) => ({ ...m })),
      };
      s.results.set(result.id, result);
    }
    post.status = 'processed';
    post.processedAt = at;
    post.updatedAt = at;
    s.dirty = true;
  }
  return post;
}

export const publicResult = ({ id, post_id, social_account_id, success, error, details, platform_data, media }: StoredResult): ProviderBResult => ({
  id,
  post_id,
  social_account_id,
  success,
  error,
  details: { ...details },
  platform_data: { ...platform_data },
  media: media ? media.map((m) => ({ ...m })) : null,
});

export function view(s: ProviderBState, post: StoredPost): ProviderBPostView {
  settle(s, post);
  const owner = keyOf(s, post.apiKey);
  return {
    id: post.id,
    caption: post.caption,
    status: post.status,
    scheduled_at: post.scheduledAt === null ? null : iso(post.scheduledAt),
    media: post.media.map((m) => ({ ...m })),
    social_accounts: post.accountIds.map((id) => ({ ...owner.accounts.find((a) => a.id === id)! })),
    external_id: post.externalId,
    platform_configurations: post.platformConfigurations,
    account_configurations: post.accountConfigurations,
    created_at: iso(post.createdAt),
    updated_at: iso(post.updatedAt),
  };
}

export function findPost(s: ProviderBState, owner: StoredKey, id: string): StoredPost | undefined {
  const post = s.posts.get(id);
  return post && post.apiKey === owner.apiKey ? settle(s, post) : undefined;
}

export function ownResults(s: ProviderBState, owner: StoredKey): StoredResult[] {
  for (const post of s.posts.values()) if (post.apiKey === owner.apiKey) settle(s, post);
  return [...s.results.values()].filter((r) => r.apiKey === owner.apiKey);
}

export function settleAll(s: ProviderBState): void {
  for (const post of s.posts.values()) settle(s, post);
}
