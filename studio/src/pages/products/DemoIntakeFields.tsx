/**
 * What to do with the chosen demo beyond taking it: how to make a landscape or square clip portrait
 * (shown only for one), and which part of the clip to keep (optional; needed for one over three
 * minutes). The rules are demo-intake.ts's.
 */
import { Group, Radio, Stack, Text, TextInput } from '@mantine/core';
import type { MediaFacts } from '../../intake/file-check';
import { KEEP, needsReframe, orientationOf, type DemoIntakeForm, type IntakeProblem, type Reframe } from './demo-intake';

interface Props {
  facts: MediaFacts | null;
  value: DemoIntakeForm;
  onChange: (value: DemoIntakeForm) => void;
  problem: IntakeProblem | null;
}

const REFRAMES: { value: Reframe; label: string; description: string }[] = [
  { value: 'blur', label: 'Blur the sides', description: 'The whole picture across the width, over a blurred copy of itself' },
  { value: 'crop', label: 'Crop the centre', description: 'The middle of the picture cut to 9:16 and filling the frame' },
];

const lengthOf = (facts: MediaFacts | null) => (facts?.durationS ? ` The clip is ${Math.round(facts.durationS * 10) / 10} s long.` : '');

export function DemoIntakeFields({ facts, value, onChange, problem }: Props) {
  const set = <K extends keyof DemoIntakeForm>(key: K, next: DemoIntakeForm[K]) => onChange({ ...value, [key]: next });
  return (
    <Stack gap="sm">
      {needsReframe(facts) && (
        <Radio.Group
          label="Make it portrait"
          description={`This clip is ${orientationOf(facts)} (${facts?.width}×${facts?.height}); reaction videos are portrait, 9:16.`}
          value={value.reframe}
          onChange={(reframe) => set('reframe', reframe as Reframe)}
          withAsterisk
        >
          <Stack gap="xs" mt="xs">
            {REFRAMES.map((option) => (
              <Radio key={option.value} value={option.value} label={option.label} description={option.description} />
            ))}
          </Stack>
        </Radio.Group>
      )}
      <div>
        <Text size="sm" fw={500}>
          Keep a part of it
        </Text>
        <Text size="xs" c="gray.7" mb={4}>
          Optional: seconds from the start of the clip; at most {KEEP.maxS / 60} minutes are kept.{lengthOf(facts)}
        </Text>
        <Group grow align="flex-start">
          <TextInput label="Start at (s)" placeholder="0" inputMode="decimal" value={value.start} onChange={(event) => set('start', event.currentTarget.value)} error={problem?.field === 'start' ? problem.message : undefined} />
          <TextInput label="End at (s)" placeholder="the end" inputMode="decimal" value={value.end} onChange={(event) => set('end', event.currentTarget.value)} error={problem?.field === 'end' ? problem.message : undefined} />
        </Group>
      </div>
    </Stack>
  );
}
