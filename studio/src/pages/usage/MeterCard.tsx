/** A capped collection (the reaction library, avatars): how full it is, and what to do when it is. */
import { Group, Paper, Progress, Text, Title } from '@mantine/core';

interface MeterCardProps {
  title: string;
  used: number;
  cap: number;
  /** What to do once full, e.g. "Delete a reaction to save another". */
  whenFull: string;
}

export function MeterCard({ title, used, cap, whenFull }: MeterCardProps) {
  const percent = cap > 0 ? Math.min(100, (used / cap) * 100) : 100;
  const full = used >= cap;
  return (
    <Paper withBorder p="lg" component="section" aria-label={title}>
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h4">
          {title}
        </Title>
        <Text size="sm" fw={500}>
          {used} of {cap}
        </Text>
      </Group>
      <Progress value={percent} color={full ? 'red' : 'violet'} size="lg" aria-label={`${title}: ${used} of ${cap} used`} />
      <Text size="sm" mt="xs">
        {full ? whenFull : `${cap - used} more can be added.`}
      </Text>
    </Paper>
  );
}
