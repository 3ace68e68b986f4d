/** The video's sound: Auto, a music track (picked and previewed here), or None, each with a line of help. */
import { useId } from 'react';
import { SegmentedControl, Stack, Text } from '@mantine/core';
import { MusicPicker } from './MusicPicker';
import { SOUND_HELP, SOUND_OPTIONS, type SoundChoice, type SoundMode } from './sound';

interface Props {
  value: SoundChoice;
  onChange: (next: SoundChoice) => void;
  /** Shown under the track list, e.g. after a submit without a track. */
  error?: string;
}

export function SoundFields({ value, onChange, error }: Props) {
  const id = useId();
  return (
    <Stack gap="sm">
      <div>
        <Text size="sm" fw={500} id={id}>
          Sound
        </Text>
        <Text size="xs" c="gray.7" mb={4}>
          {SOUND_HELP[value.sound]}
        </Text>
        <SegmentedControl aria-labelledby={id} data={SOUND_OPTIONS} value={value.sound} onChange={(sound) => onChange({ ...value, sound: sound as SoundMode })} />
      </div>
      {value.sound === 'music' && <MusicPicker value={value.musicId} onChange={(musicId) => onChange({ ...value, musicId })} error={error} />}
    </Stack>
  );
}
