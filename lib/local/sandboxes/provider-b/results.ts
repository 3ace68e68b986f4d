/** provider_b's post-result endpoints: the filtered list and one result. */
import type { SandboxResponse } from '../sandbox-kit';
import { fail, type StoredKey } from './contract';
import { ownResults, publicResult } from './lifecycle';
import { listEnvelope, multi, paging } from './listing';
import type { ProviderBState } from './state';

export function listResults(s: ProviderBState, owner: StoredKey, url: URL): SandboxResponse {
  const page = paging(url.searchParams);
  if ('status' in page) return page;
  const q = url.searchParams;
  const [postId, accountId, platform] = [multi(q, 'post_id'), multi(q, 'social_account_id'), multi(q, 'platform')];
  const items = ownResults(s, owner)
    .filter((r) => !postId || postId.includes(r.post_id))
    .filter((r) => !accountId || accountId.includes(r.social_account_id))
    .filter((r) => !platform || platform.includes(r.platform))
    .sort((a, b) => b.postedAt - a.postedAt || (a.id < b.id ? 1 : -1))
    .map(publicResult);
  return listEnvelope(s, items, page, url);
}

export function getResult(s: ProviderBState, owner: StoredKey, id: string): SandboxResponse {
  const result = ownResults(s, owner).find((r) => r.id === id);
  return result ? { status: 200, body: publicResult(result) } : fail(404, 'Result not found');
}
