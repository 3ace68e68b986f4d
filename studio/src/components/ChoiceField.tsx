/** A labelled choice among a few options side by side, with a line of help under the label (it may follow the choice). */
import { useId } from 'react';
import { SegmentedControl, Text } from '@mantine/core';

interface Props<Value extends string> {
  label: string;
  help: string;
  data: { value: Value; label: string }[];
  value: Value;
  onChange: (value: Value) => void;
}

export function ChoiceField<Value extends string>({ label, help, data, value, onChange }: Props<Value>) {
  const id = useId();
  return (
    <div>
      <Text size="sm" fw={500} id={id}>
        {label}
      </Text>
      <Text size="xs" c="gray.7" mb={4}>
        {help}
      </Text>
      {/* The control hands back one of `data`'s values, typed only as a string. */}
      <SegmentedControl aria-labelledby={id} data={data} value={value} onChange={(next) => onChange(next as Value)} />
    </div>
  );
}
