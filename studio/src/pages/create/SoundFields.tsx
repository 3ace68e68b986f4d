/** The video's sound: Auto, a music track (picked and previewed here), or None, each with a line of help. */
import { Stack } from '@mantine/core';
import { ChoiceField } from '../../components/ChoiceField';
import { MusicPicker } from './MusicPicker';
import { SOUND_HELP, SOUND_OPTIONS, type SoundChoice } from './sound';

interface Props {
  value: SoundChoice;
  onChange: (next: SoundChoice) => void;
  /** Shown under the track list, e.g. after a submit without a track. */
  error?: string;
}

export function SoundFields({ value, onChange, error }: Props) {
  return (
    <Stack gap="sm">
      <ChoiceField label="Sound" help={SOUND_HELP[value.sound]} data={SOUND_OPTIONS} value={value.sound} onChange={(sound) => onChange({ ...value, sound })} />
      {value.sound === 'music' && <MusicPicker value={value.musicId} onChange={(musicId) => onChange({ ...value, musicId })} error={error} />}
    </Stack>
  );
}
