/** A preview waiting for its owner: watch it, then approve (caption may change), regenerate, or keep the reaction. */
import { Card, Divider, Group, Stack, Text, Title } from '@mantine/core';
import type { Job } from '#client/types';
import { ApprovePanel } from './ApprovePanel';
import { RegeneratePanel } from './RegeneratePanel';
import { SaveReactionButton } from './SaveReactionButton';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function PreviewDecision({ job }: { job: Job }) {
  return (
    <Card withBorder padding="md">
      <Title order={3} size="h4" mb="sm">
        Preview
      </Title>
      <Group align="flex-start" gap="lg" wrap="wrap">
        {job.preview_url && (
          <video key={job.preview_url} src={job.preview_url} controls playsInline aria-label="Preview" style={{ width: 240, maxWidth: '100%', aspectRatio: '9 / 16', background: '#000', borderRadius: 8 }} />
        )}
        <Stack gap="md" style={{ flex: '1 1 320px' }}>
          {job.preview_expires_at && (
            <Text size="sm" c="gray.7">
              Decide before {dateTime.format(new Date(job.preview_expires_at))}: after that the preview expires.
            </Text>
          )}
          <ApprovePanel key={job.updated_at} job={job} />
          <Divider />
          <Group gap="sm">
            <RegeneratePanel key={job.updated_at} job={job} />
            <SaveReactionButton jobId={job.id} />
          </Group>
        </Stack>
      </Group>
    </Card>
  );
}
