/**
 * Posts: publish actions of a finished video through a connected scheduling provider. The rules here
 * know no AWS and no provider wire format: the create input and its checks, caption limits per
 * network, the post's states, the stored record and what clients see.
 */
import * as z from 'zod/mini';
import { CAPTION_LIMITS } from '#client/limits';
import { badRequest } from './errors';
import { idField, withoutControlCharacters } from './schemas/common';
import { SOCIAL_PROVIDERS, type Channel, type Platform, type ProviderCredentials, type ProviderName } from './social';

export const POST_STATUSES = ['draft', 'scheduled', 'publishing', 'published', 'partially_published', 'failed', 'deleted'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/** Post states after which nothing changes upstream by itself: no more refreshing. */
const FINAL_POST_STATUSES: readonly PostStatus[] = ['published', 'partially_published', 'failed', 'deleted'];

/** What a provider says about a post on one channel. */
export interface ChannelResult {
  channelId: string;
  platform: Platform;
  status: 'pending' | 'published' | 'failed' | 'deleted';
  /** The post on the network, once published. */
  url: string | null;
  error: string | null;
}

/** What a provider says about a post as a whole. */
export interface ProviderPost {
  providerPostId: string;
  status: PostStatus;
  results: ChannelResult[];
}

/**
 * Caption limits per network, in code points (their sources are listed where they are kept, in the
 * typed client, which publishes them to clients): one caption goes to every chosen channel, so the
 * strictest limit among the chosen channels' networks applies.
 */
export { CAPTION_LIMITS };

/** No network takes more than this, whatever channels are chosen: a longer caption is a field error. */
export const CAPTION_MAX = Math.max(...Object.values(CAPTION_LIMITS));
const POST_CHANNELS_MAX = 20;
const CHANNEL_ID_MAX = 200;
/** Scheduling further ahead than a year is refused: neither provider documents a bound, we set one. */
const SCHEDULE_MAX_AHEAD_DAYS = 365;

const captionLength = (caption: string) => [...caption].length;

const channelIds = z
  .array(
    z.string({ error: 'must be channel ids (strings)' }).check(
      z.minLength(1, 'must not contain an empty channel id'),
      z.maxLength(CHANNEL_ID_MAX, `must not contain a channel id longer than ${CHANNEL_ID_MAX} characters`),
      withoutControlCharacters('line'),
    ),
    { error: 'must be a non-empty array of channel ids' },
  )
  .check(
    z.minLength(1, 'must name at least one channel'),
    z.maxLength(POST_CHANNELS_MAX, `must name at most ${POST_CHANNELS_MAX} channels`),
    z.refine((ids: string[]) => new Set(ids).size === ids.length, 'must not name a channel twice'),
    z.meta({ description: `The channels to post to (their ids, GET /social/connections), 1 to ${POST_CHANNELS_MAX}; in a form body one comma-separated field` }),
  );

/**
 * POST /social/posts. `schedule_at` is checked against the clock after parsing (postRequestOf), so
 * the message can say how far off it is.
 */
export const createPostInput = z.strictObject({
  provider: z
    .enum(SOCIAL_PROVIDERS, { error: `must be one of ${SOCIAL_PROVIDERS.join(', ')}` })
    .check(z.meta({ description: 'The connected provider to post through' })),
  video_id: idField.check(z.meta({ description: 'The finished video to post (GET /videos)' })),
  account_ids: channelIds,
  caption: z.optional(
    z.string({ error: 'must be a string' }).check(
      z.refine((text: string) => captionLength(text) <= CAPTION_MAX, `must be at most ${CAPTION_MAX} characters`),
      withoutControlCharacters('text'),
      z.meta({ description: "The text posted with the video, within the strictest of its channels' limits" }),
    ),
  ),
  schedule_at: z.optional(
    z
      .nullable(z.string({ error: 'must be an ISO 8601 date-time with a UTC offset, or null' }))
      .check(z.meta({ description: `When it goes out: an ISO 8601 date-time with its offset, within ${SCHEDULE_MAX_AHEAD_DAYS} days; null or left out: now` })),
  ),
  draft: z.optional(z.boolean({ error: 'must be true or false' }).check(z.meta({ description: 'Hand it over as a draft, to publish at the provider' }))),
});
export type CreatePostInput = z.infer<typeof createPostInput>;

/**
 * Form bodies carry text only: `account_ids` is a comma-separated list, `draft` is `true`/`false`,
 * and an empty `schedule_at` means "now". JSON bodies get none of this leniency.
 */
export function postFieldsOfForm(fields: Record<string, unknown>): Record<string, unknown> {
  const out = { ...fields };
  if (typeof out.account_ids === 'string') out.account_ids = out.account_ids.split(',').map((id) => id.trim());
  if (out.draft === 'true' || out.draft === 'false') out.draft = out.draft === 'true';
  if (out.schedule_at === '') delete out.schedule_at;
  return out;
}

export interface PostRequest {
  provider: ProviderName;
  videoId: number;
  accountIds: string[];
  caption: string;
  scheduleAt: Date | null;
  draft: boolean;
}

/** ISO 8601 date-time with an explicit offset; seconds and fractions optional. */
const ISO_WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

export function parseScheduleAt(raw: string, now: Date): Date {
  const fail = (why: string) => badRequest(`Invalid post: schedule_at: ${why}`);
  const m = ISO_WITH_OFFSET.exec(raw);
  if (!m) throw fail('must be an ISO 8601 date-time with a UTC offset, e.g. 2030-01-31T18:00:00Z or 2030-01-31T19:00:00+01:00');
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as number[];
  const calendar = new Date(Date.UTC(year!, month! - 1, day!));
  const validDate = calendar.getUTCFullYear() === year && calendar.getUTCMonth() === month! - 1 && calendar.getUTCDate() === day;
  if (!validDate || hour! > 23 || minute! > 59 || second! > 59) throw fail(`${raw} is not a valid date-time`);
  const at = new Date(raw);
  if (Number.isNaN(at.getTime())) throw fail(`${raw} is not a valid date-time`);
  if (at.getTime() <= now.getTime()) throw fail(`must be in the future (it is ${now.toISOString()} now); omit it to publish now`);
  const latest = now.getTime() + SCHEDULE_MAX_AHEAD_DAYS * 24 * 60 * 60 * 1000;
  if (at.getTime() > latest) throw fail(`must be at most ${SCHEDULE_MAX_AHEAD_DAYS} days ahead`);
  return at;
}

/**
 * Providers that refuse a post without text (Post for Me's `caption` is required and not empty). We
 * ask for it rather than invent one: a made-up caption would be published under the owner's name.
 */
const CAPTION_REQUIRED: readonly ProviderName[] = ['provider_b'];

function captionFor(provider: ProviderName, caption: string | undefined): string {
  const text = caption ?? '';
  if (CAPTION_REQUIRED.includes(provider) && text.trim() === '') {
    throw badRequest(`Invalid post: caption: ${provider} requires a caption (some text to publish with the video)`);
  }
  return text;
}

export function postRequestOf(input: CreatePostInput, now: Date): PostRequest {
  return {
    provider: input.provider,
    videoId: input.video_id,
    accountIds: input.account_ids,
    caption: captionFor(input.provider, input.caption),
    scheduleAt: input.schedule_at ? parseScheduleAt(input.schedule_at, now) : null,
    draft: input.draft ?? false,
  };
}

/**
 * The channels a post goes to: each id must be one of the connection's active channels. Unknown and
 * inactive ids are told apart, since the fix differs (a typo versus reconnecting the network).
 */
export function pickChannels(provider: ProviderName, accountIds: readonly string[], channels: readonly Channel[]): Channel[] {
  const byId = new Map(channels.map((c) => [c.id, c]));
  const unknown = accountIds.filter((id) => !byId.has(id));
  const inactive = accountIds.filter((id) => byId.get(id)?.active === false);
  const problems: string[] = [];
  if (unknown.length > 0) problems.push(`not channels of ${provider}: ${unknown.join(', ')}`);
  if (inactive.length > 0) problems.push(`inactive (reconnect them at ${provider}, then POST /social/accounts/sync): ${inactive.join(', ')}`);
  if (problems.length > 0) {
    throw badRequest(`Invalid post: account_ids: ${problems.join('; ')} (GET /social/connections lists the channels)`);
  }
  return accountIds.map((id) => byId.get(id)!);
}

/**
 * provider_a (Ayrshare) refuses X operations without the owner's own X app: an X channel is refused
 * here, before the call, with the fix, when the connection was made without one.
 */
export function checkXApp(provider: ProviderName, channels: readonly Channel[], credentials: Pick<ProviderCredentials, 'xApp'>): void {
  if (provider !== 'provider_a' || credentials.xApp) return;
  const x = channels.filter((c) => c.platform === 'x').map((c) => c.id);
  if (x.length === 0) return;
  throw badRequest(
    `Invalid post: account_ids: ${x.join(', ')}: provider_a needs your X app for X channels; connect again with x_api_key and x_api_secret (PUT /social/connections/provider_a)`,
  );
}

/** The strictest limit among the channels' networks, or null when the caption fits all of them. */
export function captionOverLimit(caption: string, channels: readonly Pick<Channel, 'platform'>[]): { platform: Platform; limit: number; length: number } | null {
  const length = captionLength(caption);
  let strictest: { platform: Platform; limit: number } | null = null;
  for (const { platform } of channels) {
    const limit = CAPTION_LIMITS[platform];
    if (!strictest || limit < strictest.limit) strictest = { platform, limit };
  }
  return strictest && length > strictest.limit ? { ...strictest, length } : null;
}

export function checkCaption(caption: string, channels: readonly Pick<Channel, 'platform'>[]): void {
  const over = captionOverLimit(caption, channels);
  if (over) {
    throw badRequest(
      `Invalid post: caption: ${over.platform} takes at most ${over.limit} characters; this caption has ${over.length}`,
    );
  }
}

export interface PostResult {
  account_id: string;
  platform: Platform;
  status: ChannelResult['status'];
  /** The post on the network, once published. */
  url: string | null;
  error: string | null;
}

/** The stored record. `provider_post_id` is the provider's id of the post (shown: it is what its dashboard and support know). */
export interface Post {
  id: number;
  account_id: number;
  provider: ProviderName;
  provider_post_id: string;
  video_id: number;
  account_ids: string[];
  caption: string;
  schedule_at: string | null;
  draft: boolean;
  status: PostStatus;
  results: PostResult[];
  /** The last time the provider confirmed this state. */
  refreshed_at: string;
  created_at: string;
  updated_at: string;
}

/** What the API answers: the record without its account, and whether its state is fresh. */
export interface PostView extends Omit<Post, 'account_id'> {
  /** true when the provider could not be asked just now: status and results are as of refreshed_at. */
  stale: boolean;
  /** Why the state could not be refreshed (null unless stale). */
  stale_reason: { code: string; message: string } | null;
}

export function postView(post: Post, stale: { code: string; message: string } | null = null): PostView {
  return {
    id: post.id,
    provider: post.provider,
    provider_post_id: post.provider_post_id,
    video_id: post.video_id,
    account_ids: post.account_ids,
    caption: post.caption,
    schedule_at: post.schedule_at,
    draft: post.draft,
    status: post.status,
    results: post.results,
    stale: stale !== null,
    stale_reason: stale,
    refreshed_at: post.refreshed_at,
    created_at: post.created_at,
    updated_at: post.updated_at,
  };
}

export const isFinalStatus = (status: PostStatus) => FINAL_POST_STATUSES.includes(status);

/**
 * Per-channel results: one entry per channel the post went to, in the order asked, each taking what
 * the provider now says about it (a channel the provider is silent on keeps what we knew). Results
 * for channels we did not ask for are kept at the end rather than hidden.
 */
export function mergeResults(known: readonly PostResult[], reported: readonly ChannelResult[]): PostResult[] {
  const byChannel = new Map(reported.map((r) => [r.channelId, r]));
  const merged = known.map((entry): PostResult => {
    const fresh = byChannel.get(entry.account_id);
    if (!fresh) return entry;
    byChannel.delete(entry.account_id);
    return { account_id: entry.account_id, platform: fresh.platform ?? entry.platform, status: fresh.status, url: fresh.url, error: fresh.error };
  });
  for (const extra of byChannel.values()) {
    merged.push({ account_id: extra.channelId, platform: extra.platform, status: extra.status, url: extra.url, error: extra.error });
  }
  return merged;
}

const pendingResults = (channels: readonly Channel[]): PostResult[] =>
  channels.map((c) => ({ account_id: c.id, platform: c.platform, status: 'pending', url: null, error: null }));

/** After a delete the post is kept as a record with status `deleted`; what had gone out, or was waiting, is gone too. */
export function deletedResults(results: readonly PostResult[]): PostResult[] {
  return results.map((r) => (r.status === 'published' || r.status === 'pending' ? { ...r, status: 'deleted' } : r));
}

export function newPost(fields: {
  id: number;
  accountId: number;
  request: PostRequest;
  channels: readonly Channel[];
  accepted: ProviderPost;
  now: Date;
}): Post {
  const now = fields.now.toISOString();
  return {
    id: fields.id,
    account_id: fields.accountId,
    provider: fields.request.provider,
    provider_post_id: fields.accepted.providerPostId,
    video_id: fields.request.videoId,
    account_ids: fields.request.accountIds,
    caption: fields.request.caption,
    schedule_at: fields.request.scheduleAt?.toISOString() ?? null,
    draft: fields.request.draft,
    status: fields.accepted.status,
    results: mergeResults(pendingResults(fields.channels), fields.accepted.results),
    refreshed_at: now,
    created_at: now,
    updated_at: now,
  };
}

/**
 * How long the media URL handed to the provider stays valid. A post published now is fetched within
 * minutes (a day is plenty); a scheduled one may be fetched only at its time, so the URL lives until a
 * day past it. The blob store caps it at what its links allow: a year and a day through CloudFront on
 * AWS, the 7 days of an S3 presigned URL locally.
 */
const MEDIA_URL_MIN_TTL_S = 24 * 60 * 60;
const MEDIA_URL_MAX_TTL_S = (SCHEDULE_MAX_AHEAD_DAYS + 1) * 24 * 60 * 60;

export function mediaUrlTtlS(scheduleAt: Date | null, now: Date): number {
  if (!scheduleAt) return MEDIA_URL_MIN_TTL_S;
  const untilDayAfter = Math.ceil((scheduleAt.getTime() - now.getTime()) / 1000) + 24 * 60 * 60;
  return Math.min(MEDIA_URL_MAX_TTL_S, Math.max(MEDIA_URL_MIN_TTL_S, untilDayAfter));
}
