/** How social connections and posts are shown (connectionView and postView answer these shapes). */
import * as z from 'zod/mini';
import { PLATFORMS, SOCIAL_PROVIDERS } from '#domain/social';
import { POST_STATUSES } from '#domain/social-post';
import { describedEnum } from './common';
import { createdAt, failure, meaning, recordId, timestamp, updatedAt } from './envelope';

const POST_STATUS_MEANINGS: Readonly<Record<(typeof POST_STATUSES)[number], string>> = {
  draft: 'Handed to the provider as a draft: nothing goes out until it is published there',
  scheduled: 'Goes out at `schedule_at`',
  publishing: 'The provider is putting it out now',
  published: 'Out on every channel (`results` links to each)',
  partially_published: 'Out on some channels only: `results` says which failed and why',
  failed: 'Out on no channel: `results` says why',
  deleted: 'Deleted at the provider (DELETE /social/posts/{id}, or in its dashboard); kept here as a record',
};

const provider = meaning(z.enum(SOCIAL_PROVIDERS), 'The scheduling provider');

/** POST /social/accounts/sync. */
export const channelSyncInput = z.strictObject({
  provider: meaning(z.enum(SOCIAL_PROVIDERS, { error: `must be one of ${SOCIAL_PROVIDERS.join(', ')}` }), 'The connected provider whose channels to list again'),
});

const channelResponse = z
  .object({
    id: meaning(z.string(), "The channel's id at the provider: what a post names in `account_ids`"),
    platform: meaning(z.enum(PLATFORMS), 'The network'),
    name: meaning(z.string(), 'Its display name'),
    username: meaning(z.nullable(z.string()), 'Its handle on the network, when the provider says'),
    active: meaning(z.boolean(), 'Whether the provider can post to it now'),
  })
  .register(z.globalRegistry, { id: 'Channel', description: 'One account on one network; its id is what a post names in account_ids' });

export const connectionResponse = z
  .object({
    provider,
    status: meaning(z.enum(['active', 'error']), '`active`: the stored key works; `error`: the provider refused it (`last_error`): connect again'),
    key_hint: meaning(z.nullable(z.string()), "The key's last 4 characters, to tell keys apart (null for a short key); never the key"),
    channels: meaning(z.array(channelResponse), 'The channels the key reaches, as last listed'),
    connected_at: meaning(timestamp, 'When the key was stored'),
    synced_at: meaning(timestamp, 'When the channels were last listed'),
    last_error: meaning(
      z.nullable(
        z.object({
          code: meaning(z.string(), 'What the provider refused, as a code'),
          message: meaning(z.string(), 'What went wrong, in words fit to show'),
          at: meaning(timestamp, 'When'),
        }),
      ),
      'Why the connection is `error`; null while it works',
    ),
  })
  .register(z.globalRegistry, { id: 'Connection', description: 'A scheduling provider the account posts through, with the channels its key reaches' });

export const disconnectResponse = z.object({ provider, deleted: meaning(z.literal(true), 'Always true') }).check(z.meta({ description: 'The connection deleted' }));

export const channelSyncResponse = z
  .object({
    provider,
    status: meaning(z.enum(['active', 'error']), "The connection's state after the listing"),
    channels: meaning(z.array(channelResponse), 'The channels the key reaches now'),
    synced_at: meaning(timestamp, 'When they were listed'),
    added: meaning(z.array(z.string()), 'Channel ids that appeared since the last listing'),
    removed: meaning(z.array(z.string()), 'Channel ids that went'),
  })
  .register(z.globalRegistry, { id: 'ChannelSync', description: "A provider's channels listed again, and what changed" });

export const postResponse = z
  .object({
    id: meaning(recordId, "The post's id"),
    provider,
    provider_post_id: meaning(z.string(), "The post's id at the provider"),
    video_id: meaning(recordId, 'The video posted'),
    account_ids: meaning(z.array(z.string()), 'The channels it went to (their ids)'),
    caption: meaning(z.string(), 'The text posted with the video'),
    schedule_at: meaning(z.nullable(timestamp), 'When it goes out, if scheduled; null: at once'),
    draft: meaning(z.boolean(), 'Handed over as a draft, to publish at the provider'),
    status: describedEnum(POST_STATUSES, POST_STATUS_MEANINGS, 'Where the post stands at its provider'),
    results: meaning(
      z.array(
      z.object({
        account_id: meaning(z.string(), 'The channel'),
        platform: meaning(z.enum(PLATFORMS), 'Its network'),
        status: describedEnum(['pending', 'published', 'failed', 'deleted'], {
          pending: 'Not out on this channel yet (a draft, scheduled, or being published)',
          published: 'Out: `url` links to it',
          failed: '`error` says why',
          deleted: 'Taken down',
        }),
        url: meaning(z.nullable(z.string()), 'Once published: the post on the network'),
        error: meaning(z.nullable(z.string()), 'Once failed: why'),
      }),
      ),
      'How it went on each channel',
    ),
    stale: meaning(z.boolean(), 'True when the provider could not be asked just now: `status` and `results` are as of `refreshed_at`'),
    stale_reason: meaning(z.nullable(failure), 'Why it is stale; null otherwise'),
    refreshed_at: meaning(timestamp, 'When the provider last confirmed it'),
    created_at: createdAt,
    updated_at: updatedAt,
  })
  .register(z.globalRegistry, { id: 'Post', description: 'A finished video handed to a scheduling provider for some channels' });
