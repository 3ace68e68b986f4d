/** Auto makes the video straight away; Preview stops at the reaction for a look before it is finished. */
import { useId } from 'react';
import { SegmentedControl, Text } from '@mantine/core';
import type { Mode } from './video-request';

const HELP: Record<Mode, string> = {
  auto: 'The finished video is made straight away.',
  preview: 'You watch the reaction first, then approve it (the caption can still change), regenerate it, or save it to the library.',
};

export function ModeField({ value, onChange }: { value: Mode; onChange: (mode: Mode) => void }) {
  const id = useId();
  return (
    <div>
      <Text size="sm" fw={500} id={id}>
        Mode
      </Text>
      <Text size="xs" c="gray.7" mb={4}>
        {HELP[value]}
      </Text>
      <SegmentedControl
        aria-labelledby={id}
        value={value}
        onChange={(mode) => onChange(mode as Mode)}
        data={[
          { value: 'auto', label: 'Auto' },
          { value: 'preview', label: 'Preview' },
        ]}
      />
    </div>
  );
}
