/** How social connections and posts are shown (connectionView and postView answer these shapes). */
import * as z from 'zod/mini';
import { PLATFORMS, SOCIAL_PROVIDERS } from '#domain/social';
import { POST_STATUSES } from '#domain/social-post';
import { failure, recordId, timestamp } from './envelope';

const provider = z.enum(SOCIAL_PROVIDERS);

/** POST /social/accounts/sync. */
export const channelSyncInput = z.strictObject({
  provider: z.enum(SOCIAL_PROVIDERS, { error: `must be one of ${SOCIAL_PROVIDERS.join(', ')}` }),
});

const channelResponse = z
  .object({ id: z.string(), platform: z.enum(PLATFORMS), name: z.string(), username: z.nullable(z.string()), active: z.boolean() })
  .register(z.globalRegistry, { id: 'Channel', description: 'One account on one network; its id is what a post names in account_ids' });

export const connectionResponse = z
  .object({
    provider,
    status: z.enum(['active', 'error']),
    key_hint: z.nullable(z.string()),
    channels: z.array(channelResponse),
    connected_at: timestamp,
    synced_at: timestamp,
    last_error: z.nullable(z.object({ code: z.string(), message: z.string(), at: timestamp })),
  })
  .register(z.globalRegistry, { id: 'Connection' });

export const disconnectResponse = z.object({ provider, deleted: z.literal(true) });

export const channelSyncResponse = z
  .object({
    provider,
    status: z.enum(['active', 'error']),
    channels: z.array(channelResponse),
    synced_at: timestamp,
    added: z.array(z.string()),
    removed: z.array(z.string()),
  })
  .register(z.globalRegistry, { id: 'ChannelSync' });

export const postResponse = z
  .object({
    id: recordId,
    provider,
    provider_post_id: z.string(),
    video_id: recordId,
    account_ids: z.array(z.string()),
    caption: z.string(),
    schedule_at: z.nullable(timestamp),
    draft: z.boolean(),
    status: z.enum(POST_STATUSES),
    results: z.array(
      z.object({
        account_id: z.string(),
        platform: z.enum(PLATFORMS),
        status: z.enum(['pending', 'published', 'failed', 'deleted']),
        url: z.nullable(z.string()),
        error: z.nullable(z.string()),
      }),
    ),
    stale: z.boolean(),
    stale_reason: z.nullable(failure),
    refreshed_at: timestamp,
    created_at: timestamp,
    updated_at: timestamp,
  })
  .register(z.globalRegistry, { id: 'Post' });
