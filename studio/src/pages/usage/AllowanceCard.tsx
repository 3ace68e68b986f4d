/**
 * This period's videos: used, reserved by jobs still running (they count once finished, or return if
 * they fail) and what is left, as one ring.
 */
import { Group, Paper, RingProgress, Stack, Text, Title } from '@mantine/core';
import type { Usage } from './usage-api';

const percentOf = (part: number, whole: number) => (whole > 0 ? (part / whole) * 100 : 0);

const USED = 'var(--mantine-color-violet-filled)';
const RESERVED = 'var(--mantine-color-blue-filled)';
const LEFT = 'var(--mantine-color-gray-3)';

function Legend({ color, label, value }: { color: string; label: string; value: number }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <svg width={12} height={12} aria-hidden="true">
        <rect width={12} height={12} rx={3} fill={color} />
      </svg>
      <Text size="sm">
        {label}: <b>{value}</b>
      </Text>
    </Group>
  );
}

export function AllowanceCard({ allowance }: { allowance: Usage['allowance'] }) {
  const { limit, used, reserved, remaining } = allowance;
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="allowance-title">
      <Title order={3} id="allowance-title" mb="sm">
        Videos this period
      </Title>
      <Group gap="xl" wrap="wrap">
        <div role="img" aria-label={`${used} used and ${reserved} reserved of ${limit} videos; ${remaining} remaining`}>
          <RingProgress
            size={160}
            thickness={16}
            rootColor={LEFT}
            sections={[
              { value: percentOf(used, limit), color: USED, tooltip: `${used} used` },
              { value: percentOf(reserved, limit), color: RESERVED, tooltip: `${reserved} reserved` },
            ].filter((section) => section.value > 0)}
            label={
              <Text ta="center" fw={700} size="xl">
                {remaining}
                <Text component="span" display="block" size="xs" fw={400}>
                  left of {limit}
                </Text>
              </Text>
            }
          />
        </div>
        <Stack gap={6}>
          <Legend color={USED} label="Used" value={used} />
          <Legend color={RESERVED} label="Reserved by running jobs" value={reserved} />
          <Legend color={LEFT} label="Remaining" value={remaining} />
          <Text size="sm" mt="xs" maw={320}>
            {remaining === 0 ? 'The allowance is used up: new videos can be made when the next period starts, or on a larger plan.' : 'A video counts once it is finished; a job that fails gives its reservation back.'}
          </Text>
        </Stack>
      </Group>
    </Paper>
  );
}
