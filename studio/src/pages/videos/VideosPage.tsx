/** The finished videos, newest first, a page at a time, each with its poster. */
import { useState } from 'react';
import { Button, Card, Center, Image, Pagination, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconSparkles } from '../../components/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { unwrap } from '#client/result';
import { api } from '../../api/client';
import { PageHeader } from '../../components/PageHeader';
import { QueryStatus } from '../../components/QueryStatus';
import { formatDate, formatDuration } from './format';
import { useVideoNames } from './video-names';

const PER_PAGE = 12;

export default function VideosPage() {
  const [page, setPage] = useState(1);
  const videos = useQuery({
    queryKey: ['videos', page],
    queryFn: () => unwrap(api.GET('/videos', { params: { query: { page, per_page: PER_PAGE } } })),
    placeholderData: keepPreviousData,
  });
  const pages = videos.data ? Math.max(1, Math.ceil(videos.data.meta.total / PER_PAGE)) : 1;
  const shown = videos.data?.data ?? [];
  const nameOf = useVideoNames(shown.map((video) => video.id), shown);
  return (
    <>
      <PageHeader
        title="Videos"
        description="Your finished reaction videos, newest first."
        actions={
          <Button component={Link} to="/create" leftSection={<IconSparkles size={16} />}>
            New video
          </Button>
        }
      />
      <QueryStatus query={videos} loading="Loading videos" />
      {videos.data && videos.data.data.length === 0 && page === 1 && (
        <Card withBorder padding="xl">
          <Stack align="center" gap="sm">
            <Text>No videos yet. Make your first one: pick a product, describe the reaction, add a hook.</Text>
            <Button component={Link} to="/create">
              Create a video
            </Button>
          </Stack>
        </Card>
      )}
      {videos.data && videos.data.data.length > 0 && (
        <Stack gap="md">
          <SimpleGrid cols={{ base: 2, sm: 3, md: 4, lg: 6 }} spacing="md">
            {videos.data.data.map((video) => (
              <Card key={video.id} withBorder padding="xs" component={Link} to={`/videos/${video.id}`}>
                <Card.Section>
                  <Image src={video.thumbnail_url} alt="" style={{ aspectRatio: `${video.width} / ${video.height}` }} fit="cover" />
                </Card.Section>
                <Text size="sm" fw={500} mt="xs" lineClamp={2}>
                  {nameOf(video.id)}
                </Text>
                <Text size="xs" c="gray.7">
                  {formatDuration(video.duration_s)} · {formatDate(video.created_at)}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
          {pages > 1 && (
            <Center>
              <Pagination total={pages} value={page} onChange={setPage} getControlProps={(control) => ({ 'aria-label': `${control} page` })} getItemProps={(item) => ({ 'aria-label': `Page ${item}` })} />
            </Center>
          )}
        </Stack>
      )}
    </>
  );
}
