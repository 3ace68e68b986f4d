/**
 * Another take of the preview: the same inputs with a new seed, or a changed prompt (prompt jobs) or
 * avatar and reference (motion jobs). It costs one more unit, so the button says so.
 */
import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconRefresh } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '#client/result';
import type { Job, paths } from '#client/types';
import { api } from '../../api/client';
import { ProblemAlert } from '../../components/ProblemAlert';
import { AvatarSelect } from '../create/AvatarSelect';
import { captionOfJob, type Caption } from '../create/caption';
import { CaptionLookFields } from '../create/CaptionFields';
import { EMPTY_REFERENCE, referenceBody, type Reference } from '../create/reference';
import { ReferenceVideoFields } from '../create/ReferenceVideoFields';
import { jobKey } from './useJob';

type RegenerateBody = NonNullable<paths['/videos/jobs/{id}/regenerate']['post']['requestBody']>['content']['application/json'];

/** The API's cap on regenerations per job. */
const MAX_REGENERATIONS = 20;

export function RegeneratePanel({ job }: { job: Job }) {
  const queries = useQueryClient();
  const [opened, { open, close }] = useDisclosure(false);
  const [prompt, setPrompt] = useState(job.prompt ?? '');
  const [avatarId, setAvatarId] = useState<string | null>(job.avatar_id ? String(job.avatar_id) : null);
  const [changeReference, setChangeReference] = useState(false);
  const [reference, setReference] = useState<Reference>(EMPTY_REFERENCE);
  const [caption, setCaption] = useState<Caption>(captionOfJob(job));

  const regenerate = useMutation({
    mutationFn: async () => {
      const body: RegenerateBody = {};
      if (caption.style !== job.hook_style) body.hook_style = caption.style;
      if (caption.duration !== job.hook_duration) body.hook_duration = caption.duration;
      if (job.method === 'prompt' && prompt.trim() && prompt.trim() !== job.prompt) body.prompt = prompt.trim();
      if (job.method === 'motion') {
        if (avatarId && Number(avatarId) !== job.avatar_id) body.avatar_id = Number(avatarId);
        if (changeReference) Object.assign(body, referenceBody(reference));
      }
      return (await unwrap(api.POST('/videos/jobs/{id}/regenerate', { params: { path: { id: job.id } }, body }))).data;
    },
    onSuccess: (next) => {
      queries.setQueryData(jobKey(job.id), next);
      close();
    },
  });

  if (job.method === 'reuse') return null;
  const left = MAX_REGENERATIONS - job.regenerations;
  const waiting = changeReference && (reference.uploading || !referenceBody(reference));

  return (
    <>
      <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={open} disabled={left <= 0}>
        Regenerate…
      </Button>
      <Modal opened={opened} onClose={close} title="Regenerate the preview" size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
        <Stack gap="sm">
          <Text size="sm">
            A new take costs <strong>one more unit</strong> of your monthly allowance. Leave everything as it is for the same inputs with a new seed. {left} regeneration{left === 1 ? '' : 's'} left for this job.
          </Text>
          {job.method === 'prompt' && <Textarea label="Reaction prompt" description="Change it, or keep it for another take" autosize minRows={2} maxLength={1000} value={prompt} onChange={(event) => setPrompt(event.currentTarget.value)} />}
          {job.method === 'motion' && (
            <>
              <AvatarSelect value={avatarId} onChange={setAvatarId} required />
              {changeReference ? (
                <ReferenceVideoFields value={reference} onChange={setReference} />
              ) : (
                <Group>
                  <Button variant="subtle" size="xs" onClick={() => setChangeReference(true)}>
                    Use a different reference video
                  </Button>
                </Group>
              )}
            </>
          )}
          {job.hook_text && <CaptionLookFields value={caption} onChange={setCaption} />}
          <ProblemAlert error={regenerate.error} onClose={regenerate.reset} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button onClick={() => regenerate.mutate()} loading={regenerate.isPending} disabled={waiting}>
              Regenerate (1 unit)
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
