/** A line the person says during the reaction; a saved reaction (reuse) plays as it was made, so none there. */
import { TextInput } from '@mantine/core';
import { CountedTextInput } from '../../components/CountedText';
import { TEXT_LIMITS } from '../../intake/limits';

const LABEL = 'Voice line';
const PLACEHOLDER = "Wait… that's actually good?!";

export function VoiceLineField({ value, onChange, disabled, error }: { value: string; onChange: (next: string) => void; disabled?: boolean; error?: string }) {
  if (disabled) return <TextInput label={LABEL} description="A saved reaction plays as it was made: it takes no voice line." placeholder={PLACEHOLDER} value="" disabled />;
  return (
    <CountedTextInput
      label={LABEL}
      description="Words the person says during the reaction; leave it empty for none"
      placeholder={PLACEHOLDER}
      limit={TEXT_LIMITS.voiceLine}
      value={value}
      error={error}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}
