/** An API refusal in words a person can act on, with the request id to quote to support. */
import { Alert, Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { IconAlertTriangle } from './icons';
import { problemOf, type Action } from '../api/errors';

/** `action` names what was asked, where a code means something more precise for it (a 401 to a sign-in). */
export function ProblemAlert({ error, onClose, action }: { error: unknown; onClose?: () => void; action?: Action }) {
  if (!error) return null;
  const problem = problemOf(error, action);
  return (
    <Alert color="red" variant="light" title={problem.heading} icon={<IconAlertTriangle size={18} />} withCloseButton={!!onClose} closeButtonLabel="Dismiss" onClose={onClose} role="alert">
      <Text size="sm">{problem.detail}</Text>
      {problem.changePlan && (
        <Anchor component={Link} to="/plans" size="sm" underline="always" display="inline-block" mt={4}>
          See the plans
        </Anchor>
      )}
      {problem.requestId && (
        <Text size="xs" c="dimmed" mt={4}>
          Request id: {problem.requestId}
        </Text>
      )}
    </Alert>
  );
}
