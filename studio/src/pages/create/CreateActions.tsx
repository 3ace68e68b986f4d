/** The New video form's last row: what is still missing, the API's refusal, and the button with the units it spends. */
import { Button, Group, Stack, Text } from '@mantine/core';
import { ProblemAlert } from '../../components/ProblemAlert';
import { UnitsLeft } from '../usage/UnitsLeft';

interface Props {
  /** What to change first, once sending was tried. */
  missing: string | null;
  error: unknown;
  onDismiss: () => void;
  pending: boolean;
  /** Videos the press makes: 1, or the variants. */
  count: number;
  batch: boolean;
}

export function CreateActions({ missing, error, onDismiss, pending, count, batch }: Props) {
  return (
    <Stack gap="sm">
      {missing && (
        <Text c="red.8" size="sm" role="alert">
          {missing}
        </Text>
      )}
      <ProblemAlert error={error} onClose={onDismiss} />
      <Group>
        <Button type="submit" size="md" loading={pending}>
          {batch ? `Create ${count} videos` : 'Create video'}
        </Button>
        <UnitsLeft cost={count} />
      </Group>
    </Stack>
  );
}
