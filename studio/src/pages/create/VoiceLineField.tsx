/** A line the person says during the reaction; a saved reaction (reuse) plays as it was made, so none there. */
import { Text, TextInput } from '@mantine/core';
import { VOICE_LINE_MAX } from './sound';

export function VoiceLineField({ value, onChange, disabled, error }: { value: string; onChange: (next: string) => void; disabled?: boolean; error?: string }) {
  return (
    <TextInput
      label="Voice line"
      description={disabled ? 'A saved reaction plays as it was made: it takes no voice line.' : `Words the person says during the reaction, at most ${VOICE_LINE_MAX} characters; leave it empty for none`}
      placeholder="Wait… that's actually good?!"
      value={disabled ? '' : value}
      maxLength={VOICE_LINE_MAX}
      disabled={disabled}
      error={error}
      onChange={(event) => onChange(event.currentTarget.value)}
      rightSectionWidth={64}
      rightSectionPointerEvents="none"
      rightSection={
        disabled ? null : (
          <Text size="xs" c="gray.7" aria-hidden>
            {value.length}/{VOICE_LINE_MAX}
          </Text>
        )
      }
    />
  );
}
