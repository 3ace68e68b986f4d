/** One video job, live: its progress while it runs, the decision at a preview, the video when it is done. */
import { Anchor, Button, Card, Group, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconMovie } from '../../components/icons';
import { Link, useParams } from 'react-router';
import type { Job } from '#client/types';
import { PageHeader } from '../../components/PageHeader';
import { ProblemAlert } from '../../components/ProblemAlert';
import { JobFailure } from './JobFailure';
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
  return (
    <>
      <PageHeader
        title={`Job #${Number.isFinite(id) ? id : '?'}`}
        description="This page follows the job as it runs; you can leave and come back."
        actions={
          <Anchor component={Link} to="/jobs" size="sm">
            All jobs
          </Anchor>
        }
      />
      {job.isPending && <Loader aria-label="Loading the job" />}
      <ProblemAlert error={job.error} />
      {job.data && (
        <Stack gap="md">
          <Card withBorder padding="md">
            <Stack gap="md">
              <JobProgress job={job.data} />
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
            </Group>
          )}
        </Stack>
      )}
    </>
  );
}
