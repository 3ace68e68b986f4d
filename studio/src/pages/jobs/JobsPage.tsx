/**
 * Every video job, newest first, in slices (the API pages by cursor: "Show older jobs" asks for the
 * next). Unfinished jobs show their stage live: the loaded slices are asked for again every two
 * seconds while any of them runs.
 */
import { Anchor, Badge, Button, Card, Center, Progress, Stack, Table, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { unwrap } from '#client/result';
import type { Job } from '#client/types';
import { api } from '../../api/client';
import { PageHeader } from '../../components/PageHeader';
import { QueryStatus } from '../../components/QueryStatus';
import { ResponsiveTable } from '../../components/ResponsiveTable';
import { formatDate } from '../videos/format';
import { videoName } from '../videos/video-name';
import { useProductNames } from '../videos/video-names';
import { STATUS_COLOURS, STATUS_WORDS, isSettled, progressLine } from './job-words';

const SLICE = 20;

function JobRow({ job, name }: { job: Job; name: string }) {
  const running = !isSettled(job);
  return (
    <Table.Tr>
      <Table.Td data-label="Video">
        <Anchor component={Link} to={`/jobs/${job.id}`} underline="always" fw={500}>
          {name}
        </Anchor>
        <Text size="xs" c="gray.7">
          Job #{job.id} · {formatDate(job.created_at)}
        </Text>
      </Table.Td>
      <Table.Td data-label="Status">
        <Badge color={STATUS_COLOURS[job.status]} variant="dot">
          {STATUS_WORDS[job.status]}
        </Badge>
      </Table.Td>
      <Table.Td data-label="Stage" miw={220}>
        <Text size="sm">{progressLine(job)}</Text>
        {running && <Progress value={job.progress} size="sm" mt={4} animated striped aria-label={`${name}: progress`} />}
        {job.status === 'failed' && job.error && (
          <Text size="xs" c="red.8">
            {job.error.message}
          </Text>
        )}
      </Table.Td>
      <Table.Td data-label="Result">
        {job.status === 'done' && job.video_id ? (
          <Anchor component={Link} to={`/videos/${job.video_id}`} underline="always" size="sm">
            Open the video
          </Anchor>
        ) : job.status === 'preview_ready' ? (
          <Anchor component={Link} to={`/jobs/${job.id}`} underline="always" size="sm">
            Review the preview
          </Anchor>
        ) : null}
      </Table.Td>
    </Table.Tr>
  );
}

export default function JobsPage() {
  const jobs = useInfiniteQuery({
    queryKey: ['jobs'],
    queryFn: ({ pageParam }) => unwrap(api.GET('/videos/jobs', { params: { query: { limit: SLICE, ...(pageParam ? { before: pageParam } : {}) } } })),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.meta.next_before,
    refetchInterval: (query) => (query.state.data?.pages.some((slice) => slice.data.some((job) => !isSettled(job))) ? 2_000 : false),
    staleTime: 0,
  });
  const list = jobs.data?.pages.flatMap((slice) => slice.data) ?? [];
  const productName = useProductNames(list.map((job) => job.product_id));
  return (
    <>
      <PageHeader
        title="Jobs"
        description="Every video job, newest first. Running jobs update by themselves."
        actions={
          <Button component={Link} to="/create">
            New video
          </Button>
        }
      />
      <QueryStatus query={jobs} loading="Loading jobs" />
      {jobs.isSuccess && list.length === 0 && (
        <Card withBorder padding="xl">
          <Stack align="center" gap="sm">
            <Text>No jobs yet. Each video you create runs as a job you can follow here.</Text>
            <Button component={Link} to="/create">
              Create a video
            </Button>
          </Stack>
        </Card>
      )}
      {list.length > 0 && (
        <Stack gap="md">
          <ResponsiveTable columns={['Video', 'Status', 'Stage', 'Result']} minWidth={720} verticalSpacing="sm" highlightOnHover aria-label="Jobs">
            {list.map((job) => (
              <JobRow key={job.id} job={job} name={videoName({ id: job.video_id, productName: productName(job.product_id), hookText: job.hook_text })} />
            ))}
          </ResponsiveTable>
          {jobs.hasNextPage && (
            <Center>
              <Button variant="default" onClick={() => void jobs.fetchNextPage()} loading={jobs.isFetchingNextPage}>
                Show older jobs
              </Button>
            </Center>
          )}
        </Stack>
      )}
    </>
  );
}
