/**
 * Approving a preview, with the caption or the sound changed if wanted: only what differs from the job
 * is sent, so an unchanged caption lets the API reuse the preview without encoding anything.
 */
import { useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '#client/result';
import type { Job, paths } from '#client/types';
import { api } from '../../api/client';
import { ProblemAlert } from '../../components/ProblemAlert';
import { UnitsLeft } from '../usage/UnitsLeft';
import { TEXT_LIMITS } from '../../intake/limits';
import { counted } from '../../intake/text-count';
import { CaptionFields } from '../create/CaptionFields';
import { CaptionPreview } from '../create/CaptionPreview';
import { captionOfJob, type Caption } from '../create/caption';
import { soundOverride, type SoundChoice } from '../create/sound';
import { SoundFields } from '../create/SoundFields';
import { jobKey } from './useJob';

type ApproveBody = NonNullable<paths['/videos/jobs/{id}/approve']['post']['requestBody']>['content']['application/json'];

export function ApprovePanel({ job }: { job: Job }) {
  const queries = useQueryClient();
  const [caption, setCaption] = useState<Caption>(captionOfJob(job));
  const [sound, setSound] = useState<SoundChoice>({ sound: job.sound, musicId: job.music_id });
  const [attempted, setAttempted] = useState(false);
  const soundChange = soundOverride(sound, job);
  const approve = useMutation({
    mutationFn: async () => {
      const text = caption.text.trim();
      const body: ApproveBody = typeof soundChange === 'string' ? {} : { ...soundChange };
      if (text !== (job.hook_text ?? '')) body.hook_text = text || null;
      if (caption.position !== job.hook_position) body.hook_position = caption.position;
      if (caption.size !== job.hook_size) body.hook_size = caption.size;
      if (caption.style !== job.hook_style) body.hook_style = caption.style;
      if (caption.duration !== job.hook_duration) body.hook_duration = caption.duration;
      return (await unwrap(api.POST('/videos/jobs/{id}/approve', { params: { path: { id: job.id } }, body }))).data;
    },
    onSuccess: (next) => {
      queries.setQueryData(jobKey(job.id), next);
      // It runs again: the watch on jobs (JobWatcher) follows it to tell when it is done.
      void queries.invalidateQueries({ queryKey: ['jobs'] });
      void queries.invalidateQueries({ queryKey: ['usage'] });
    },
  });
  return (
    <Stack gap="sm">
      <Text size="sm">Happy with the reaction? Approve it to join it with the product's demo. You can still change the caption and the sound here.</Text>
      <Group align="flex-start" gap="lg" wrap="wrap">
        <div style={{ flex: '1 1 260px' }}>
          <CaptionFields value={caption} onChange={setCaption} description="Change the caption before the video is made, or leave it as it is" />
        </div>
        <CaptionPreview caption={caption} jobId={job.id} imageUrl={job.preview_still_url} maxWidth={160} />
      </Group>
      <SoundFields value={sound} onChange={setSound} error={attempted && typeof soundChange === 'string' ? 'Choose a track' : undefined} />
      <ProblemAlert error={approve.error} onClose={approve.reset} />
      <Group>
        <Button
          onClick={() => {
            setAttempted(true);
            if (typeof soundChange !== 'string' && !counted(TEXT_LIMITS.hookText, caption.text).over) approve.mutate();
          }}
          loading={approve.isPending}
        >
          Approve
        </Button>
        <UnitsLeft cost={0} />
      </Group>
    </Stack>
  );
}
