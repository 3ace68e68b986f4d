/** How social connections and posts are shown (connectionView and postView answer these shapes). */
import * as z from 'zod/mini';
import { PLATFORMS, SOCIAL_PROVIDERS } from '#domain/social';
import { POST_STATUSES } from '#domain/social-post';
import { describedEnum } from './common';
import { failure, recordId, timestamp } from './envelope';

const POST_STATUS_MEANINGS: Readonly<Record<(typeof POST_STATUSES)[number], string>> = {
  draft: 'Handed to the provider as a draft: nothing goes out until it is published there',
  scheduled: 'Goes out at `schedule_at`',
  publishing: 'The provider is putting it out now',
  published: 'Out on every channel (`results` links to each)',
  partially_published: 'Out on some channels only: `results` says which failed and why',
  failed: 'Out on no channel: `results` says why',
  deleted: 'Deleted at the provider (DELETE /social/posts/{id}, or in its dashboard); kept here as a record',
};

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
    status: describedEnum(POST_STATUSES, POST_STATUS_MEANINGS, 'Where the post stands at its provider'),
    results: z.array(
      z.object({
        account_id: z.string(),
        platform: z.enum(PLATFORMS),
        status: describedEnum(['pending', 'published', 'failed', 'deleted'], {
          pending: 'Not out on this channel yet (a draft, scheduled, or being published)',
          published: 'Out: `url` links to it',
          failed: '`error` says why',
          deleted: 'Taken down',
        }),
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
