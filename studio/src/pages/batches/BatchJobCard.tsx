/**
 * One variant of a batch: its hook, where its job stands, its preview playing, and what can be done
 * with it right there: approve the preview as it is, regenerate it, save its reaction, or, once done,
 * open and post the video. Its job page has the rest (the caption and sound at approval, the takes).
 */
import { Anchor, Button, Card, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { unwrap } from '#client/result';
import type { Job } from '#client/types';
import { api } from '../../api/client';
import { IconCheck, IconShare } from '../../components/icons';
import { ProblemAlert } from '../../components/ProblemAlert';
import { JobProgress } from '../jobs/JobProgress';
import { RegeneratePanel } from '../jobs/RegeneratePanel';
import { SaveReactionButton } from '../jobs/SaveReactionButton';
import { jobKey } from '../jobs/useJob';

function useQuickApprove(job: Job) {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async () => (await unwrap(api.POST('/videos/jobs/{id}/approve', { params: { path: { id: job.id } }, body: {} }))).data,
    onSuccess: (next) => {
      queries.setQueryData(jobKey(job.id), next);
      return Promise.all([queries.invalidateQueries({ queryKey: ['batch'] }), queries.invalidateQueries({ queryKey: ['jobs'] })]);
    },
  });
}

function Decision({ job, name }: { job: Job; name: string }) {
  const approve = useQuickApprove(job);
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Button size="xs" leftSection={<IconCheck size={14} />} loading={approve.isPending} onClick={() => approve.mutate()} aria-label={`Approve ${name}`}>
          Approve
        </Button>
        <RegeneratePanel key={job.updated_at} job={job} compact />
      </Group>
      <SaveReactionButton jobId={job.id} compact />
      <ProblemAlert error={approve.error} onClose={approve.reset} />
    </Stack>
  );
}

export function BatchJobCard({ job, name, hook }: { job: Job; name: string; hook: string }) {
  return (
    <Card withBorder padding="sm" component="article" aria-label={name}>
      <Stack gap="xs">
        <Text fw={600} size="sm" lineClamp={2}>
          {hook}
        </Text>
        {job.status === 'preview_ready' && job.preview_url && (
          // No poster: the bare still has no caption, and variants are compared by their captions. The
          // media fragment makes every browser show the captioned first frame before play.
          <video src={`${job.preview_url}#t=0.1`} controls playsInline preload="metadata" aria-label={`Preview: ${hook}`} style={{ width: '100%', aspectRatio: '9 / 16', background: '#000', borderRadius: 6 }} />
        )}
        <JobProgress job={job} />
        {job.status === 'preview_ready' && <Decision job={job} name={name} />}
        {job.status === 'done' && job.video_id && (
          <Group gap="xs">
            <Button size="xs" component={Link} to={`/videos/${job.video_id}`} variant="light">
              Open the video
            </Button>
            <Button size="xs" component={Link} to={`/social?video_id=${job.video_id}`} variant="default" leftSection={<IconShare size={14} />} aria-label={`Post ${name}`}>
              Post it
            </Button>
          </Group>
        )}
        <Anchor component={Link} to={`/jobs/${job.id}`} size="xs" underline="always">
          Job #{job.id}: details{job.status === 'preview_ready' ? ', takes, caption and sound' : ''}
        </Anchor>
      </Stack>
    </Card>
  );
}
