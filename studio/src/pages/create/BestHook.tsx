/**
 * New video's reminder of what worked: the hook whose posts drew the most views in the last 30
 * days (GET /analytics, from the last sync), one click from being this video's hook. Nothing shows
 * while there is none, or when analytics cannot be read: it is a hint, never in the way.
 */
import { Button, Group, Paper, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { analyticsKey, fetchOverview } from '../analytics/analytics-query';
import { hookResult } from '../analytics/breakdown-words';

const BEST_HOOK_DAYS = 30;

interface Props {
  /** The verb on the button: "Use" (the hook text), "Add" (a variant's hook). */
  pickLabel: string;
  onPick: (hook: string) => void;
}

export function BestHook({ pickLabel, onPick }: Props) {
  const overview = useQuery({ queryKey: analyticsKey(BEST_HOOK_DAYS), queryFn: () => fetchOverview(BEST_HOOK_DAYS), staleTime: 5 * 60_000 });
  const best = overview.data?.best_hook;
  if (!best) return null;
  return (
    <Paper withBorder p="xs" role="group" aria-label="Best hook of the last 30 days">
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <div>
          <Text size="xs" c="gray.7">
            Best hook of the last 30 days · {hookResult(best)}
          </Text>
          <Text size="sm" fw={500}>
            {best.hook_text}
          </Text>
        </div>
        <Button size="compact-sm" variant="light" onClick={() => onPick(best.hook_text)} aria-label={`${pickLabel} the best hook: ${best.hook_text}`}>
          {pickLabel}
        </Button>
      </Group>
    </Paper>
  );
}
