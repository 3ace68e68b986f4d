/** The hook caption's three inputs: text, where it sits and how big it is (the API's own values). */
import { useId, type ReactNode } from 'react';
import { SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { HOOK_MAX, POSITION_OPTIONS, SIZE_OPTIONS, type Caption } from './caption';

interface Props {
  value: Caption;
  onChange: (next: Caption) => void;
  /** Beside the text input's label, e.g. the hook ideas. */
  textAction?: ReactNode;
  description?: string;
}

export function CaptionFields({ value, onChange, textAction, description }: Props) {
  const id = useId();
  return (
    <Stack gap="sm">
      <TextInput
        label="Hook text"
        description={description ?? `The caption over the reaction, at most ${HOOK_MAX} characters; leave it empty for none`}
        value={value.text}
        maxLength={HOOK_MAX}
        onChange={(event) => onChange({ ...value, text: event.currentTarget.value })}
      />
      {textAction}
      <div>
        <Text size="sm" fw={500} id={`${id}-position`}>
          Caption position
        </Text>
        <SegmentedControl aria-labelledby={`${id}-position`} data={POSITION_OPTIONS} value={value.position} onChange={(position) => onChange({ ...value, position: position as Caption['position'] })} />
      </div>
      <div>
        <Text size="sm" fw={500} id={`${id}-size`}>
          Caption size
        </Text>
        <SegmentedControl aria-labelledby={`${id}-size`} data={SIZE_OPTIONS} value={value.size} onChange={(size) => onChange({ ...value, size: size as Caption['size'] })} />
      </div>
    </Stack>
  );
}
