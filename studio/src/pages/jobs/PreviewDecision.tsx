/**
 * A preview waiting for its owner: watch it (or its takes side by side, once regenerated), then
 * approve the one picked (caption and sound may change), regenerate, or keep the reaction.
 */
import { useState } from 'react';
import { Card, Divider, Group, Stack, Text, Title } from '@mantine/core';
import type { Job } from '#client/types';
import { ApprovePanel } from './ApprovePanel';
import { RegeneratePanel } from './RegeneratePanel';
import { SaveReactionButton } from './SaveReactionButton';
import { defaultTake } from './take-words';
import { TakesGrid } from './TakesGrid';
import { useTakes } from './useTakes';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function Deadline({ job }: { job: Job }) {
  if (!job.preview_expires_at) return null;
  return (
    <Text size="sm" c="gray.7">
      Decide before {dateTime.format(new Date(job.preview_expires_at))}: after that the preview expires.
    </Text>
  );
}

export function PreviewDecision({ job }: { job: Job }) {
  const takes = useTakes(job);
  const [picked, setPicked] = useState<number | null>(null);
  const list = takes.data ?? [];
  // One take is the job's own preview: the takes are worth showing once there are several.
  const several = list.length > 1;
  const chosen = several ? list.find((take) => take.take === (picked ?? defaultTake(list))) : undefined;
  const decision = (
    <Stack gap="md" style={{ flex: '1 1 320px' }}>
      <Deadline job={job} />
      <ApprovePanel key={`${job.updated_at}-${chosen?.take ?? 'job'}`} job={job} take={chosen} />
      <Divider />
      <Group gap="sm">
        <RegeneratePanel key={job.updated_at} job={job} />
        <SaveReactionButton jobId={job.id} />
      </Group>
    </Stack>
  );
  return (
    <Card withBorder padding="md">
      <Title order={3} size="h4" mb="sm">
        {several ? `Takes (${list.length})` : 'Preview'}
      </Title>
      {several ? (
        <Stack gap="lg">
          <TakesGrid takes={list} picked={chosen?.take ?? null} onPick={setPicked} />
          {decision}
        </Stack>
      ) : (
        <Group align="flex-start" gap="lg" wrap="wrap">
          {job.preview_url && (
            <video key={job.preview_url} src={job.preview_url} controls playsInline aria-label="Preview" style={{ width: 240, maxWidth: '100%', aspectRatio: '9 / 16', background: '#000', borderRadius: 8 }} />
          )}
          {decision}
        </Group>
      )}
    </Card>
  );
}
