/**
 * provider_b's post endpoints: POST /v1/social-posts (validation, the optional media check), PUT
 * (while still a draft or scheduled), DELETE and the filtered list.
 */
import { INVALID_JSON, isAllowedMediaUrl, isRecord, mediaReachable, parseIsoDate, randomToken, type SandboxResponse } from '../sandbox-kit';
import { POST_STATUSES, fail, invalid, type ProviderBPostStatus, type StoredKey, type StoredPost } from './contract';
import { findPost, settle, view } from './lifecycle';
import { listEnvelope, multi, paging } from './listing';
import type { ProviderBState } from './state';

interface PostInput {
  caption: string;
  accountIds: string[];
  media: Array<Record<string, unknown>>;
  scheduledAt: number | null;
  isDraft: boolean;
  externalId: string | null;
  platformConfigurations: Record<string, unknown> | null;
  accountConfigurations: unknown[] | null;
}

function parsePostBody(s: ProviderBState, owner: StoredKey, json: unknown): PostInput | SandboxResponse {
  if (json === INVALID_JSON) return invalid(['body must be valid JSON']);
  if (!isRecord(json)) return invalid(['body must be a JSON object']);
  const errors: string[] = [];
  if (typeof json.caption !== 'string') errors.push('caption must be a string');
  else if (json.caption === '') errors.push('caption should not be empty');
  const accounts = json.social_accounts;
  if (!Array.isArray(accounts) || accounts.length === 0) errors.push('social_accounts must contain at least 1 elements');
  else if (!accounts.every((a) => typeof a === 'string')) errors.push('each value in social_accounts must be a string');
  else if (new Set(accounts).size !== accounts.length) errors.push("All social_accounts's elements must be unique");
  else for (const id of accounts as string[]) if (!owner.accounts.some((a) => a.id === id)) errors.push(`social account ${id} not found`);
  const media = json.media ?? [];
  if (!Array.isArray(media)) errors.push('media must be an array');
  else
    media.forEach((m, i) => {
      if (!isRecord(m) || typeof m.url !== 'string' || !isAllowedMediaUrl(m.url)) errors.push(`media.${i}.url must be a public https URL (http only on loopback in the sandbox)`);
      else if (m.thumbnail_url !== undefined && m.thumbnail_url !== null && (typeof m.thumbnail_url !== 'string' || !isAllowedMediaUrl(m.thumbnail_url))) errors.push(`media.${i}.thumbnail_url must be a public https URL`);
    });
  let scheduledAt: number | null = null;
  if (json.scheduled_at !== undefined && json.scheduled_at !== null) {
    scheduledAt = typeof json.scheduled_at === 'string' ? parseIsoDate(json.scheduled_at) : null;
    if (scheduledAt === null) errors.push('scheduled_at must be a valid ISO 8601 date string');
    else if (scheduledAt <= s.clock.now()) errors.push('scheduled_at must be in the future');
  }
  if (json.isDraft !== undefined && json.isDraft !== null && typeof json.isDraft !== 'boolean') errors.push('isDraft must be a boolean value');
  if (json.external_id !== undefined && json.external_id !== null && typeof json.external_id !== 'string') errors.push('external_id must be a string');
  if (json.platform_configurations !== undefined && json.platform_configurations !== null && !isRecord(json.platform_configurations)) errors.push('platform_configurations must be an object');
  if (json.account_configurations !== undefined && json.account_configurations !== null && !Array.isArray(json.account_configurations)) errors.push('account_configurations must be an array');
  if (errors.length > 0) return invalid(errors);
  return {
    caption: json.caption as string,
    accountIds: [...(accounts as string[])],
    media: (media as Array<Record<string, unknown>>).map((m) => ({ ...m })),
    scheduledAt,
    isDraft: json.isDraft === true,
    externalId: (json.external_id as string | null | undefined) ?? null,
    platformConfigurations: (json.platform_configurations as Record<string, unknown> | null | undefined) ?? null,
    accountConfigurations: (json.account_configurations as unknown[] | null | undefined) ?? null,
  };
}

/** Draft, scheduled (future) or processing from now (null or past scheduled_at). */
function applyInput(post: StoredPost, input: PostInput, now: number): void {
  post.caption = input.caption;
  post.accountIds = input.accountIds;
  post.media = input.media;
  post.scheduledAt = input.scheduledAt;
  post.externalId = input.externalId;
  post.platformConfigurations = input.platformConfigurations;
  post.accountConfigurations = input.accountConfigurations;
  post.updatedAt = now;
  if (input.isDraft) {
    post.status = 'draft';
    post.processingSince = null;
  } else if (input.scheduledAt !== null && input.scheduledAt > now) {
    post.status = 'scheduled';
    post.processingSince = null;
  } else {
    post.status = 'processing';
    post.processingSince = now;
  }
}

async function checkMedia(s: ProviderBState, input: PostInput): Promise<boolean> {
  if (!s.checkMedia) return true;
  for (const m of input.media) if (!(await mediaReachable(m.url as string))) return false;
  return true;
}

export async function createPost(s: ProviderBState, owner: StoredKey, json: unknown): Promise<SandboxResponse> {
  const input = parsePostBody(s, owner, json);
  if ('status' in input && 'body' in input) return input;
  const parsed = input as PostInput;
  const mediaOk = await checkMedia(s, parsed);
  const now = s.clock.now();
  const post: StoredPost = {
    id: `sp_${randomToken(20)}`,
    apiKey: owner.apiKey,
    caption: '',
    status: 'draft',
    scheduledAt: null,
    media: [],
    accountIds: [],
    externalId: null,
    platformConfigurations: null,
    accountConfigurations: null,
    createdAt: now,
    updatedAt: now,
    processingSince: null,
    processedAt: null,
    mediaOk,
  };
  applyInput(post, parsed, now);
  s.posts.set(post.id, post);
  s.dirty = true;
  return { status: 201, body: view(s, post) };
}

export async function updatePost(s: ProviderBState, owner: StoredKey, post: StoredPost, json: unknown): Promise<SandboxResponse> {
  if (post.status === 'processing' || post.status === 'processed') return fail(400, 'Post has already been processed');
  const input = parsePostBody(s, owner, json);
  if ('status' in input && 'body' in input) return input;
  const parsed = input as PostInput;
  const mediaOk = await checkMedia(s, parsed);
  if (!s.posts.has(post.id)) return fail(404, 'Post not found');
  // The media check awaited: the post may have moved on meanwhile.
  const status: ProviderBPostStatus = settle(s, post).status;
  if (status === 'processing' || status === 'processed') return fail(400, 'Post has already been processed');
  post.mediaOk = mediaOk;
  applyInput(post, parsed, s.clock.now());
  s.dirty = true;
  return { status: 200, body: view(s, post) };
}

export function listPosts(s: ProviderBState, owner: StoredKey, url: URL): SandboxResponse {
  const page = paging(url.searchParams);
  if ('status' in page) return page;
  const q = url.searchParams;
  const [status, platform, accountId, externalId] = [multi(q, 'status'), multi(q, 'platform'), multi(q, 'social_account_id'), multi(q, 'external_id')];
  const unknownStatus = status?.filter((s) => !(POST_STATUSES as readonly string[]).includes(s)) ?? [];
  if (unknownStatus.length > 0) return invalid([`each value in status must be one of the following values: ${POST_STATUSES.join(', ')}`]);
  const items = [...s.posts.values()]
    .filter((p) => p.apiKey === owner.apiKey)
    .map((p) => settle(s, p))
    .filter((p) => !status || status.includes(p.status))
    .filter((p) => !accountId || p.accountIds.some((a) => accountId.includes(a)))
    .filter((p) => !platform || p.accountIds.some((a) => platform.includes(owner.accounts.find((x) => x.id === a)?.platform ?? '')))
    .filter((p) => !externalId || (p.externalId !== null && externalId.includes(p.externalId)))
    .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
    .map((p) => view(s, p));
  return listEnvelope(s, items, page, url);
}

export function deletePost(s: ProviderBState, owner: StoredKey, id: string): SandboxResponse {
  const post = findPost(s, owner, id);
  if (!post) return fail(404, 'Post not found');
  if (post.status !== 'draft' && post.status !== 'scheduled') return fail(400, 'Can only delete draft or scheduled posts');
  s.posts.delete(post.id);
  s.dirty = true;
  return { status: 200, body: { success: true } };
}
