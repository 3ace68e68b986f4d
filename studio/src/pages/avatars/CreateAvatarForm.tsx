/**
 * A new avatar, two ways: describe a person and a portrait is drawn (it appears in the grid when ready),
 * or upload a photo, sent straight to storage with a progress bar.
 */
import { useState } from 'react';
import { Button, Group, Paper, SegmentedControl, Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPhoto } from '../../components/icons';
import { useMutation } from '@tanstack/react-query';
import { UploadProgress, useUpload } from '../../api/upload';
import { CountedTextarea } from '../../components/CountedText';
import { FileDropField } from '../../components/FileDropField';
import { ProblemAlert } from '../../components/ProblemAlert';
import { TEXT_LIMITS } from '../../intake/limits';
import { counted } from '../../intake/text-count';
import { useCreateAvatar } from './avatars-api';

type Way = 'prompt' | 'photo';

export function CreateAvatarForm() {
  const [way, setWay] = useState<Way>('prompt');
  const [prompt, setPrompt] = useState('');
  const [photo, setPhoto] = useState<File | null>(null);
  const photoUpload = useUpload('avatar_image');
  const create = useCreateAvatar();
  const submit = useMutation({
    mutationFn: async () => {
      if (way === 'prompt') return create.mutateAsync({ prompt: prompt.trim() });
      if (!photo) throw new Error('Choose a photo first.');
      const upload = await photoUpload.upload(photo);
      return create.mutateAsync({ image_upload_id: upload.id });
    },
    onSuccess: (avatar) => {
      setPrompt('');
      setPhoto(null);
      photoUpload.reset();
      notifications.show({ color: 'green', title: 'Avatar added', message: avatar.status === 'processing' ? 'Its portrait is being drawn; it appears below when ready.' : 'It is ready to use in videos.' });
    },
  });
  const promptCount = counted(TEXT_LIMITS.avatarPrompt, prompt);
  const ready = way === 'prompt' ? promptCount.count >= (TEXT_LIMITS.avatarPrompt.min ?? 1) && !promptCount.over : photo !== null;
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="new-avatar-title">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit.mutate();
        }}
      >
        <Stack gap="sm">
          <Title order={3} id="new-avatar-title">
            New avatar
          </Title>
          <SegmentedControl
            aria-label="How to make the avatar"
            value={way}
            onChange={(value) => {
              setWay(value as Way);
              submit.reset();
            }}
            data={[
              { value: 'prompt', label: 'Describe a person' },
              { value: 'photo', label: 'Upload a photo' },
            ]}
            maw={420}
          />
          {way === 'prompt' ? (
            <CountedTextarea
              label="Prompt"
              description="Who reacts in your videos, e.g. “a cheerful woman in her thirties with curly hair, studio light”; at least 3 characters."
              autosize
              minRows={2}
              limit={TEXT_LIMITS.avatarPrompt}
              value={prompt}
              onChange={(event) => setPrompt(event.currentTarget.value)}
            />
          ) : (
            <>
              <FileDropField purpose="avatar_image" label="Photo" description="A clear, front-facing portrait." leftSection={<IconPhoto size={16} />} value={photo} onChange={setPhoto} />
              <UploadProgress value={photoUpload.progress} label="Uploading photo" />
            </>
          )}
          <ProblemAlert error={submit.error} />
          <Group>
            <Button type="submit" loading={submit.isPending} disabled={!ready}>
              Create avatar
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
