/**
 * Who a provider_b key is: its social accounts (created on first use from the default list, derived
 * from the key so the same on every start, tokens included) and where a post's network copy lives.
 */
import { hashDigits, hashToken, networkPost } from '../sandbox-kit';
import { PROVIDER_B_KEY_PREFIX, type ProviderBAccount, type StoredKey } from './contract';
import type { ProviderBState } from './state';

function handleOf(apiKey: string): string {
  return apiKey.slice(PROVIDER_B_KEY_PREFIX.length).toLowerCase().replace(/[^a-z0-9_]/g, '').slice(0, 18) || 'sandbox';
}

function makeAccount(apiKey: string, platform: string, status: 'connected' | 'disconnected'): ProviderBAccount {
  const seed = `${apiKey}:${platform}`;
  const username = `${handleOf(apiKey)}.${platform}`;
  return {
    id: `spc_${hashToken(seed, 20)}`,
    platform,
    username,
    user_id: platform === 'youtube' ? `UC${hashToken(`${seed}:uid`, 22)}` : hashDigits(`${seed}:uid`, 17),
    status,
    external_id: null,
    metadata: { connected_via: 'sandbox' },
    access_token: `sandbox_access_token_${hashToken(`${seed}:at`, 32)}`,
    refresh_token: `sandbox_refresh_token_${hashToken(`${seed}:rt`, 32)}`,
    access_token_expires_at: '2030-01-01T00:00:00.000Z',
    refresh_token_expires_at: '2031-01-01T00:00:00.000Z',
    profile_photo_url: `https://api.dicebear.com/9.x/avataaars/png?seed=${encodeURIComponent(username)}`,
  };
}

export function keyOf(s: ProviderBState, apiKey: string): StoredKey {
  let entry = s.keys.get(apiKey);
  if (!entry) {
    entry = { apiKey, accounts: s.defaultAccounts.map((a) => makeAccount(apiKey, a.platform, a.status)) };
    s.keys.set(apiKey, entry);
    s.dirty = true;
  }
  return entry;
}

export function networkCopy(account: ProviderBAccount, postId: string): { id: string; url: string } {
  return networkPost(account.platform, `${postId}:${account.id}`, {
    id: account.user_id,
    username: account.username,
    profileUrl: `https://www.${account.platform}.com/${account.username}`,
  });
}
