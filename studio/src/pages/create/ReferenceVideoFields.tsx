/**
 * The motion reference: a link to a short video on an allowed host, or a file of one's own. The file
 * goes straight to storage as soon as it is chosen (with progress), so creating sends only its id.
 */
import { useState, type Dispatch, type SetStateAction } from 'react';
import { Stack, TextInput } from '@mantine/core';
import { ChoiceField } from '../../components/ChoiceField';
import { IconUpload } from '../../components/icons';
import { useUpload, UploadProgress } from '../../api/upload';
import { FileDropField } from '../../components/FileDropField';
import { ProblemAlert } from '../../components/ProblemAlert';
import type { Reference } from './reference';

export function ReferenceVideoFields({ value, onChange }: { value: Reference; onChange: Dispatch<SetStateAction<Reference>> }) {
  const { upload, progress } = useUpload('reference_video');
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<unknown>(null);

  const choose = async (chosen: File | null) => {
    setFile(chosen);
    setError(null);
    onChange((current) => ({ ...current, uploadId: null, uploading: !!chosen }));
    if (!chosen) return;
    try {
      const done = await upload(chosen);
      onChange((current) => ({ ...current, uploadId: done.id, uploading: false }));
    } catch (caught) {
      setError(caught);
      onChange((current) => ({ ...current, uploadId: null, uploading: false }));
    }
  };

  return (
    <Stack gap="xs">
      <ChoiceField<Reference['source']>
        label="Reference video"
        help="The avatar copies the movement in it."
        value={value.source}
        onChange={(source) => onChange((current) => ({ ...current, source }))}
        data={[
          { value: 'upload', label: 'Upload a file' },
          { value: 'link', label: 'Link' },
        ]}
      />
      {value.source === 'upload' ? (
        <>
          <FileDropField purpose="reference_video" label="Reference video file" leftSection={<IconUpload size={16} />} value={file} onChange={(chosen) => void choose(chosen)} />
          <UploadProgress value={progress} label="Reference video upload" />
          <ProblemAlert error={error} onClose={() => setError(null)} />
        </>
      ) : (
        <TextInput
          label="Reference video link"
          description="An https link to a short video (TikTok, Instagram, YouTube Shorts and similar)"
          placeholder="https://www.tiktok.com/@someone/video/…"
          type="url"
          value={value.url}
          onChange={(event) => {
            const url = event.currentTarget.value;
            onChange((current) => ({ ...current, url }));
          }}
        />
      )}
    </Stack>
  );
}
