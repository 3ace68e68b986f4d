/**
 * Another take of the preview: the same inputs with a new seed, or a changed prompt (prompt jobs) or
 * avatar and reference (motion jobs), and for any job its sound and voice line, with the new-video
 * form's fields, filled in from the job. It costs one more unit, so the button says so.
 */
import { useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconRefresh } from '../../components/icons';
import { useMutation } from '@tanstack/react-query';
import { unwrap } from '#client/result';
import type { Job } from '#client/types';
import { api } from '../../api/client';
import { ProblemAlert } from '../../components/ProblemAlert';
import { UnitsLeft } from '../usage/UnitsLeft';
import { AvatarSelect } from '../create/AvatarSelect';
import { captionOfJob, type Caption } from '../create/caption';
import { CaptionLookFields } from '../create/CaptionFields';
import { ReactionPromptField } from '../create/ReactionPromptField';
import { EMPTY_REFERENCE, type Reference } from '../create/reference';
import { ReferenceVideoFields } from '../create/ReferenceVideoFields';
import { SoundFields } from '../create/SoundFields';
import { VoiceLineField } from '../create/VoiceLineField';
import { regenerateFormOf, regenerateRequest, VOICE_LINE_KEPT, type RegenerateBody, type RegenerateForm } from './regenerate-request';
import { useJobRunsAgain } from './useJob';

/** The API's cap on regenerations per job. */
const MAX_REGENERATIONS = 20;

/** `compact`: a small button, for a card among others (a batch's). */
export function RegeneratePanel({ job, compact = false }: { job: Job; compact?: boolean }) {
  const runsAgain = useJobRunsAgain();
  const [opened, { open, close }] = useDisclosure(false);
  const [form, setForm] = useState<RegenerateForm>(() => regenerateFormOf(job));
  // Its own state: the upload updates it when it finishes, after the form may have changed.
  const [changeReference, setChangeReference] = useState(false);
  const [reference, setReference] = useState<Reference>(EMPTY_REFERENCE);
  const [attempted, setAttempted] = useState(false);
  const [caption, setCaption] = useState<Caption>(captionOfJob(job));
  const set = <K extends keyof RegenerateForm>(key: K, value: RegenerateForm[K]) => setForm((current) => ({ ...current, [key]: value }));
  const request = regenerateRequest({ ...form, reference: changeReference ? reference : null }, job);
  // The caption's look is sent only where it changed, as every other field.
  const withCaption = (body: RegenerateBody): RegenerateBody => ({
    ...body,
    ...(caption.style !== job.hook_style ? { hook_style: caption.style } : {}),
    ...(caption.duration !== job.hook_duration ? { hook_duration: caption.duration } : {}),
  });

  const regenerate = useMutation({
    mutationFn: async (body: RegenerateBody) => {
      const answer = (await unwrap(api.POST('/videos/jobs/{id}/regenerate', { params: { path: { id: job.id } }, body }))).data;
      // Only a dry run answers a quote, and this is never one.
      if (!('id' in answer)) throw new Error('The API answered a quote instead of regenerating; please try again.');
      return answer;
    },
    onSuccess: (next) => {
      runsAgain(next);
      close();
    },
  });

  if (job.method === 'reuse') return null;
  const left = MAX_REGENERATIONS - job.regenerations;

  return (
    <>
      <Button variant="default" size={compact ? 'xs' : 'sm'} leftSection={<IconRefresh size={compact ? 14 : 16} />} onClick={open} disabled={left <= 0}>
        Regenerate…
      </Button>
      <Modal opened={opened} onClose={close} title="Regenerate the preview" size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
        <Stack gap="sm">
          <Text size="sm">
            A new take costs <strong>one more unit</strong> of your monthly allowance. Leave everything as it is for the same inputs with a new seed. {left} regeneration{left === 1 ? '' : 's'} left for this job.
          </Text>
          {job.method === 'prompt' && (
            <ReactionPromptField description="Change it, or keep it for another take" value={form.prompt} onChange={(prompt) => set('prompt', prompt)} />
          )}
          {job.method === 'motion' && (
            <>
              <AvatarSelect value={form.avatarId} onChange={(avatarId) => set('avatarId', avatarId)} required />
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
          <SoundFields value={form.sound} onChange={(sound) => set('sound', sound)} error={attempted && form.sound.sound === 'music' && !form.sound.musicId ? 'Choose a track' : undefined} />
          <VoiceLineField value={form.voiceLine} onChange={(voiceLine) => set('voiceLine', voiceLine)} error={request === VOICE_LINE_KEPT ? request : undefined} />
          {attempted && typeof request === 'string' && request !== VOICE_LINE_KEPT && (
            <Text c="red.8" size="sm" role="alert">
              {request}
            </Text>
          )}
          <ProblemAlert error={regenerate.error} onClose={regenerate.reset} />
          <Group justify="flex-end">
            <UnitsLeft cost={1} />
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button
              onClick={() => {
                setAttempted(true);
                if (typeof request !== 'string') regenerate.mutate(withCaption(request));
              }}
              loading={regenerate.isPending}
              disabled={changeReference && reference.uploading}
            >
              Regenerate (1 unit)
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
