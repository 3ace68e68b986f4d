/**
 * Every video job, newest first, in slices (the API pages by cursor: "Show older jobs" asks for the
 * next). Unfinished jobs show their stage live: the loaded slices are asked for again every two
 * seconds while any of them runs.
 */
import { Anchor, Badge, Button, Card, Center, Loader, Progress, Stack, Table, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { unwrap } from '#client/result';
import type { Job } from '#client/types';
import { api } from '../../api/client';
import { PageHeader } from '../../components/PageHeader';
import { ProblemAlert } from '../../components/ProblemAlert';
import { formatDate } from '../videos/format';
import { STATUS_COLOURS, STATUS_WORDS, isSettled, stageLine } from './job-words';

const SLICE = 20;

function JobRow({ job }: { job: Job }) {
  const running = !isSettled(job);
  return (
    <Table.Tr>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Anchor component={Link} to={`/jobs/${job.id}`} underline="always">
          Job #{job.id}
        </Anchor>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Badge color={STATUS_COLOURS[job.status]} variant="dot">
          {STATUS_WORDS[job.status]}
        </Badge>
      </Table.Td>
      <Table.Td miw={220}>
        <Text size="sm">{stageLine(job)}</Text>
        {running && <Progress value={job.progress} size="sm" mt={4} animated striped aria-label={`Job #${job.id} progress`} />}
        {job.status === 'failed' && job.error && (
          <Text size="xs" c="red.8">
            {job.error.message}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm" lineClamp={2}>
          {job.hook_text ?? '—'}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{formatDate(job.created_at)}</Text>
      </Table.Td>
      <Table.Td>
        {job.status === 'done' && job.video_id ? (
          <Anchor component={Link} to={`/videos/${job.video_id}`} underline="always" size="sm">
            Video #{job.video_id}
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
      {jobs.isPending && <Loader aria-label="Loading jobs" />}
      <ProblemAlert error={jobs.error} />
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
          <Table.ScrollContainer minWidth={760}>
            <Table verticalSpacing="sm" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Job</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Stage</Table.Th>
                  <Table.Th>Hook</Table.Th>
                  <Table.Th>Created</Table.Th>
                  <Table.Th>Result</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((job) => (
                  <JobRow key={job.id} job={job} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
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
