/**
 * Approving a preview, with the caption or the sound changed if wanted: only what differs from the
 * take being approved is sent (approve-request.ts), so an unchanged caption lets the API reuse the
 * preview without encoding anything.
 */
import { useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { unwrap } from '#client/result';
import type { Job, Take } from '#client/types';
import { api } from '../../api/client';
import { ProblemAlert } from '../../components/ProblemAlert';
import { TEXT_LIMITS } from '../../intake/limits';
import { counted } from '../../intake/text-count';
import { CaptionFields } from '../create/CaptionFields';
import { CaptionPreview } from '../create/CaptionPreview';
import { captionOfJob, type Caption } from '../create/caption';
import { type SoundChoice } from '../create/sound';
import { SoundFields } from '../create/SoundFields';
import { UnitsLeft } from '../usage/UnitsLeft';
import { approveBody, type ApproveBody } from './approve-request';
import { useJobRunsAgain } from './useJob';

/** `take`: the take chosen among several (its options are what the changes are measured against); none: the job's own preview. */
export function ApprovePanel({ job, take }: { job: Job; take?: Take }) {
  const runsAgain = useJobRunsAgain();
  const base = take?.options ?? job;
  const [caption, setCaption] = useState<Caption>(captionOfJob(base));
  const [sound, setSound] = useState<SoundChoice>({ sound: base.sound, musicId: base.music_id });
  const [attempted, setAttempted] = useState(false);
  const request = approveBody(base, caption, sound, take?.take);
  const approve = useMutation({
    mutationFn: async (body: ApproveBody) => (await unwrap(api.POST('/videos/jobs/{id}/approve', { params: { path: { id: job.id } }, body }))).data,
    onSuccess: runsAgain,
  });
  return (
    <Stack gap="sm">
      <Text size="sm">
        {take ? `Happy with take ${take.take}? ` : 'Happy with the reaction? '}Approve it to join it with the product's demo. You can still change the caption and the sound here.
      </Text>
      <Group align="flex-start" gap="lg" wrap="wrap">
        <div style={{ flex: '1 1 260px' }}>
          <CaptionFields value={caption} onChange={setCaption} description="Change the caption before the video is made, or leave it as it is" />
        </div>
        <CaptionPreview caption={caption} jobId={job.id} imageUrl={take ? take.preview_still_url : job.preview_still_url} maxWidth={160} />
      </Group>
      <SoundFields value={sound} onChange={setSound} error={attempted && typeof request === 'string' ? 'Choose a track' : undefined} />
      <ProblemAlert error={approve.error} onClose={approve.reset} />
      <Group>
        <Button
          onClick={() => {
            setAttempted(true);
            if (typeof request !== 'string' && !counted(TEXT_LIMITS.hookText, caption.text).over) approve.mutate(request);
          }}
          loading={approve.isPending}
        >
          {take ? `Approve take ${take.take}` : 'Approve'}
        </Button>
        <UnitsLeft cost={0} />
      </Group>
    </Stack>
  );
}
