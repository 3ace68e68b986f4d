/** Where a post went: one line per channel with its outcome, a link once published, the network's reason when it failed. */
import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { PLATFORM_LABEL, RESULT_COLOR, type Post } from './social-words';

export function PostChannels({ post }: { post: Post }) {
  return (
    <Stack gap={4}>
      {post.results.map((result) => (
        <Group key={result.account_id} gap={6} wrap="nowrap">
          <Badge size="sm" variant="dot" color={RESULT_COLOR[result.status]}>
            {PLATFORM_LABEL[result.platform]}: {result.status}
          </Badge>
          {result.url && (
            <Anchor href={result.url} target="_blank" rel="noreferrer" size="sm" aria-label={`View post ${post.id} on ${PLATFORM_LABEL[result.platform]}`}>
              View
            </Anchor>
          )}
          {result.error && (
            <Text size="xs" c="red.9">
              {result.error}
            </Text>
          )}
        </Group>
      ))}
    </Stack>
  );
}
