/** How the social page names providers, networks and post states. */
import type { components } from '#client/types';

export type Connection = components['schemas']['Connection'];
export type Channel = components['schemas']['Channel'];
export type Post = components['schemas']['Post'];
export type Provider = Connection['provider'];
export type Platform = Channel['platform'];
export type PostStatus = Post['status'];

export const PROVIDERS: Provider[] = ['provider_a', 'provider_b'];

export const PROVIDER_LABEL: Record<Provider, string> = { provider_a: 'Provider A', provider_b: 'Provider B' };

export const PLATFORM_LABEL: Record<Platform, string> = {
  tiktok: 'TikTok',
  instagram: 'Instagram',
  youtube: 'YouTube',
  facebook: 'Facebook',
  x: 'X',
  linkedin: 'LinkedIn',
  threads: 'Threads',
  pinterest: 'Pinterest',
  bluesky: 'Bluesky',
};

// Shown as dot badges: the word in the text colour, the state's colour only in the dot (coloured badge text
// fails WCAG AA contrast at badge size for green, yellow and orange).
export const STATUS_WORDS: Record<PostStatus, { label: string; color: string }> = {
  draft: { label: 'Draft', color: 'gray' },
  scheduled: { label: 'Scheduled', color: 'blue' },
  publishing: { label: 'Publishing', color: 'yellow' },
  published: { label: 'Published', color: 'green' },
  partially_published: { label: 'Partly published', color: 'orange' },
  failed: { label: 'Failed', color: 'red' },
  deleted: { label: 'Deleted', color: 'gray' },
};

export const RESULT_COLOR: Record<Post['results'][number]['status'], string> = { pending: 'yellow', published: 'green', failed: 'red', deleted: 'gray' };

/** Posts the list refreshes from the provider by itself (docs: `publishing`, or `scheduled` and due). */
export function isMoving(post: Post, now = Date.now()): boolean {
  if (post.status === 'publishing') return true;
  return post.status === 'scheduled' && post.schedule_at !== null && Date.parse(post.schedule_at) <= now;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
export const formatDateTime = (iso: string): string => dateTime.format(new Date(iso));

export const channelLabel = (channel: Channel): string =>
  `${PLATFORM_LABEL[channel.platform]} · ${channel.username ? `@${channel.username.replace(/^@/, '')}` : channel.name}`;
