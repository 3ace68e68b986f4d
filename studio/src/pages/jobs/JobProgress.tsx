/** Where a job is: its status, the stage in words with how far it is, a progress bar and its place in line if it waits. */
import { Badge, Group, Progress, Stack, Text } from '@mantine/core';
import type { Job } from '#client/types';
import { STATUS_COLOURS, STATUS_WORDS, progressLine } from './job-words';

export function JobProgress({ job }: { job: Job }) {
  const running = job.status === 'queued' || job.status === 'processing';
  return (
    <Stack gap={6}>
      <Group gap="xs">
        <Badge color={STATUS_COLOURS[job.status]} variant="dot" data-testid="job-status">
          {STATUS_WORDS[job.status]}
        </Badge>
        <Text size="sm" aria-live="polite">
          {progressLine(job)}
        </Text>
      </Group>
      <Progress value={job.progress} animated={running} striped={running} color={STATUS_COLOURS[job.status]} aria-label="Job progress" />
    </Stack>
  );
}
