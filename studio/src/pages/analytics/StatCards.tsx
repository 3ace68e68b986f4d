/** The window's totals, one card each. */
import { Paper, SimpleGrid, Text } from '@mantine/core';
import { formatCount, METRICS, type Overview } from './analytics-words';

export function StatCards({ totals }: { totals: Overview['totals'] }) {
  const cards = [...METRICS.map(({ key, label }) => ({ key, label, value: totals[key] })), { key: 'posts', label: 'Posts', value: totals.posts }];
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} component="dl" m={0}>
      {cards.map((card) => (
        <Paper key={card.key} withBorder p="md">
          <Text component="dt" size="sm" c="gray.7">
            {card.label}
          </Text>
          <Text component="dd" fz={28} fw={700} m={0}>
            {formatCount(card.value)}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
