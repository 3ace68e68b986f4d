/** One video job, live: its progress while it runs, the decision at a preview, the video when it is done. */
import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconMovie, IconShare } from '../../components/icons';
import { Link, useParams } from 'react-router';
import type { Job } from '#client/types';
import { PageHeader } from '../../components/PageHeader';
import { QueryStatus } from '../../components/QueryStatus';
import { NotifyWhenDoneButton } from '../../app/NotifyWhenDoneButton';
import { videoName } from '../videos/video-name';
import { useProductNames } from '../videos/video-names';
import { JobFailure } from './JobFailure';
import { isSettled } from './job-words';
import { JobProgress } from './JobProgress';
import { PreviewDecision } from './PreviewDecision';
import { useJob } from './useJob';

const METHOD_WORDS: Record<Job['method'], string> = { prompt: 'From a prompt', motion: 'Copying a reference video', reuse: 'A saved reaction' };

function JobFacts({ job }: { job: Job }) {
  const facts: [string, string][] = [
    ['Method', METHOD_WORDS[job.method]],
    ['Mode', job.mode === 'preview' ? 'Preview first' : 'Automatic'],
    ['Hook', job.hook_text ? `"${job.hook_text}" (${job.hook_size}, ${job.hook_position}, ${job.hook_style.replace('_', ' ')}${job.hook_duration === 'full' ? ', whole video' : ''})` : 'No caption'],
    ['Units charged', String(job.charged_units)],
  ];
  if (job.prompt) facts.splice(1, 0, ['Prompt', job.prompt]);
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
      {facts.map(([term, value]) => (
        <Text key={term} size="sm">
          <Text span c="gray.7" size="sm">
            {term}:{' '}
          </Text>
          {value}
        </Text>
      ))}
    </SimpleGrid>
  );
}

export default function JobPage() {
  const id = Number(useParams().id);
  const job = useJob(id);
  const productName = useProductNames(job.data ? [job.data.product_id] : []);
  const name = job.data ? videoName({ id: job.data.video_id, productName: productName(job.data.product_id), hookText: job.data.hook_text }) : `Job #${Number.isFinite(id) ? id : '?'}`;
  return (
    <>
      <PageHeader
        title={name}
        description={`Job #${Number.isFinite(id) ? id : '?'}. This page follows the job as it runs; you can leave and come back, and you are told when it finishes.`}
        actions={
          <Group gap="md">
            {job.data?.batch_id && (
              <Anchor component={Link} to={`/batches/${job.data.batch_id}`} size="sm">
                Its batch
              </Anchor>
            )}
            <Anchor component={Link} to="/jobs" size="sm">
              All jobs
            </Anchor>
          </Group>
        }
      />
      <QueryStatus query={job} loading="Loading the job" />
      {job.data && (
        <Stack gap="md">
          <Card withBorder padding="md">
            <Stack gap="md">
              <JobProgress job={job.data} />
              {!isSettled(job.data) && <NotifyWhenDoneButton />}
              <JobFacts job={job.data} />
            </Stack>
          </Card>
          {job.data.status === 'failed' && job.data.error && <JobFailure error={job.data.error} />}
          {job.data.status === 'preview_ready' && <PreviewDecision job={job.data} />}
          {job.data.status === 'done' && job.data.video_id && (
            <Group>
              <Button component={Link} to={`/videos/${job.data.video_id}`} leftSection={<IconMovie size={16} />}>
                Open the finished video
              </Button>
              <Button component={Link} to={`/social?video_id=${job.data.video_id}`} variant="default" leftSection={<IconShare size={16} />}>
                Post it
              </Button>
            </Group>
          )}
        </Stack>
      )}
    </>
  );
}
