/**
 * The posts, newest first, a page at a time. While a post on the page is still going out the list is
 * asked again every few seconds: the API refreshes such posts from their provider as it lists them.
 */
import { Group, Loader, Pagination, Stack, Table, Text, Title } from '@mantine/core';
import { ACTIONS, ResponsiveTable } from '../../components/ResponsiveTable';
import { useVideoNames } from '../videos/video-names';
import { notify } from '../../components/notify';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '#client/result';
import { api } from '../../api/client';
import { QueryStatus } from '../../components/QueryStatus';
import { ConfirmButton } from '../../components/ConfirmButton';
import { PostChannels } from './PostChannels';
import { PostStatusBadge } from './PostStatusBadge';
import { fetchPosts, fetchVideoChoices, POSTS_PER_PAGE, SOCIAL_KEYS } from './social-queries';
import { formatDateTime, isMoving, PROVIDER_LABEL, type Post } from './social-words';

const POLL_MS = 5_000;

export function PostsSection({ page, onPageChange }: { page: number; onPageChange: (page: number) => void }) {
  const queries = useQueryClient();
  const posts = useQuery({
    queryKey: SOCIAL_KEYS.posts(page),
    queryFn: () => fetchPosts(page),
    refetchInterval: (query) => (query.state.data?.data.some((post) => isMoving(post)) ? POLL_MS : false),
  });
  const pages = posts.data ? Math.max(1, Math.ceil(posts.data.meta.total / POSTS_PER_PAGE)) : 1;
  // The post form's picker holds the newest videos by name; older ones are asked for one by one.
  const choices = useQuery({ queryKey: SOCIAL_KEYS.videoChoices, queryFn: fetchVideoChoices });
  const chosenName = new Map(choices.data?.map((choice) => [Number(choice.value), choice.name]));
  const videoIds = posts.data?.data.map((post) => post.video_id) ?? [];
  const fetchedName = useVideoNames(choices.isSuccess ? videoIds.filter((id) => !chosenName.has(id)) : []);
  const nameOf = (id: number) => chosenName.get(id) ?? fetchedName(id);

  const remove = async (post: Post) => {
    await unwrap(api.DELETE('/social/posts/{id}', { params: { path: { id: post.id } } }));
    await queries.invalidateQueries({ queryKey: SOCIAL_KEYS.allPosts });
    notify(`Post ${post.id} deleted at ${PROVIDER_LABEL[post.provider]}.`);
  };

  return (
    <Stack component="section" aria-labelledby="posts-heading" gap="sm">
      <Group justify="space-between">
        <Title order={3} id="posts-heading">
          Posts
        </Title>
        {posts.isFetching && !posts.isPending && <Loader size="xs" aria-label="Refreshing posts" />}
      </Group>
      <QueryStatus query={posts} loading="Loading posts" size="sm" />
      {posts.data?.data.length === 0 && (
        <Text size="sm" c="gray.7">
          {page > 1 ? 'Nothing on this page.' : 'No posts yet: pick a video and channels in New post to publish your first one.'}
        </Text>
      )}
      {!!posts.data?.data.length && (
        <ResponsiveTable columns={['Post', 'Status', 'Channels', 'Caption', 'When', ACTIONS]} minWidth={820} verticalSpacing="sm" aria-label="Posts">
          {posts.data.data.map((post) => (
            <Table.Tr key={post.id}>
              <Table.Td data-label="Post">
                <Text size="sm" fw={500}>
                  {nameOf(post.video_id)}
                </Text>
                <Text size="xs" c="gray.7">
                  Post #{post.id} · {PROVIDER_LABEL[post.provider]}
                </Text>
              </Table.Td>
              <Table.Td data-label="Status">
                <PostStatusBadge post={post} />
              </Table.Td>
              <Table.Td data-label="Channels">
                <PostChannels post={post} />
              </Table.Td>
              <Table.Td data-label="Caption" maw={240}>
                <Text size="sm" lineClamp={2} c={post.caption ? undefined : 'gray.7'}>
                  {post.caption || 'No caption'}
                </Text>
              </Table.Td>
              <Table.Td data-label="When">
                <Text size="sm">{post.schedule_at ? formatDateTime(post.schedule_at) : 'Right away'}</Text>
                <Text size="xs" c="gray.7">
                  {post.draft ? 'Draft · ' : ''}created {formatDateTime(post.created_at)}
                </Text>
              </Table.Td>
              <Table.Td>
                {post.status !== 'deleted' && (
                  <ConfirmButton
                    label="Delete"
                    confirmLabel="Delete post"
                    aria-label={`Delete post ${post.id}`}
                    title={`Delete post ${post.id}?`}
                    message={`It is removed at ${PROVIDER_LABEL[post.provider]} if its rules allow (if not, you are told why). The post stays in this list, marked deleted.`}
                    onConfirm={() => remove(post)}
                  />
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </ResponsiveTable>
      )}
      {pages > 1 && <Pagination total={pages} value={page} onChange={onPageChange} aria-label="Posts pages" />}
    </Stack>
  );
}
