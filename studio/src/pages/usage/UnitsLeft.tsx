/** What an action spends and what the month has left, beside its button; short of units, the way to the Plans page. */
import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { unitsNote } from './units';
import { useUsage } from './usage-api';

export function UnitsLeft({ cost }: { cost: number }) {
  const usage = useUsage();
  const note = unitsNote(cost, usage.data?.allowance);
  return (
    <Text size="sm" c={note.enough ? 'gray.7' : 'red.8'} data-testid="units-left">
      {note.text}
      {!note.enough && (
        <>
          {' '}
          <Anchor component={Link} to="/plans" size="sm" underline="always">
            Change plan
          </Anchor>
        </>
      )}
    </Text>
  );
}
