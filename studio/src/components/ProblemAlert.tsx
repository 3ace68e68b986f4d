/** An API refusal in words a person can act on, with the request id to quote to support. */
import { Alert, Text } from '@mantine/core';
import { IconAlertTriangle } from './icons';
import { problemOf } from '../api/errors';

export function ProblemAlert({ error, onClose }: { error: unknown; onClose?: () => void }) {
  if (!error) return null;
  const problem = problemOf(error);
  return (
    <Alert color="red" variant="light" title={problem.heading} icon={<IconAlertTriangle size={18} />} withCloseButton={!!onClose} closeButtonLabel="Dismiss" onClose={onClose} role="alert">
      <Text size="sm">{problem.detail}</Text>
      {problem.requestId && (
        <Text size="xs" c="dimmed" mt={4}>
          Request id: {problem.requestId}
        </Text>
      )}
    </Alert>
  );
}
