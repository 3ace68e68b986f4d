/** provider_b's social-account endpoints: the filtered list, one account, and disconnecting it. */
import type { SandboxResponse } from '../sandbox-kit';
import { fail, type StoredKey } from './contract';
import { listEnvelope, multi, paging } from './listing';
import type { ProviderBState } from './state';

export function listAccounts(s: ProviderBState, owner: StoredKey, url: URL): SandboxResponse {
  const page = paging(url.searchParams);
  if ('status' in page) return page;
  const q = url.searchParams;
  const [platform, username, id, externalId] = [multi(q, 'platform'), multi(q, 'username'), multi(q, 'id'), multi(q, 'external_id')];
  const items = owner.accounts
    .filter((a) => !platform || platform.includes(a.platform))
    .filter((a) => !username || username.includes(a.username))
    .filter((a) => !id || id.includes(a.id))
    .filter((a) => !externalId || (a.external_id !== null && externalId.includes(a.external_id)))
    .map((a) => ({ ...a }));
  return listEnvelope(s, items, page, url);
}

export function getAccount(owner: StoredKey, id: string): SandboxResponse {
  const account = owner.accounts.find((a) => a.id === id);
  return account ? { status: 200, body: { ...account } } : fail(404, 'Social account not found');
}

export function disconnectAccount(s: ProviderBState, owner: StoredKey, id: string): SandboxResponse {
  const account = owner.accounts.find((a) => a.id === id);
  if (!account) return fail(404, 'Social account not found');
  account.status = 'disconnected';
  s.dirty = true;
  return { status: 200, body: { ...account } };
}
