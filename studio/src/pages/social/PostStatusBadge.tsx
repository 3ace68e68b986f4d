/** A post's state, with a note when the provider could not be asked and the state shown may be old. */
import { Badge, Group, Tooltip } from '@mantine/core';
import { IconClockExclamation } from '../../components/icons';
import { formatDateTime, STATUS_WORDS, type Post } from './social-words';

export function PostStatusBadge({ post }: { post: Post }) {
  const words = STATUS_WORDS[post.status];
  return (
    <Group gap={4} wrap="nowrap">
      <Badge color={words.color} variant="dot">
        {words.label}
      </Badge>
      {post.stale && (
        <Tooltip label={`${post.stale_reason?.message ?? 'The provider could not be asked'}. Shown as of ${formatDateTime(post.refreshed_at)}.`} multiline w={260}>
          <IconClockExclamation size={16} role="img" aria-label={`May be out of date: ${post.stale_reason?.message ?? 'the provider could not be asked'}`} />
        </Tooltip>
      )}
    </Group>
  );
}
