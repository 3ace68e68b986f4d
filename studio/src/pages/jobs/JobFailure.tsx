/** Why a job failed, in words, with the API's own message saying what to do next. */
import { Alert, Button, Text } from '@mantine/core';
import { IconAlertTriangle } from '../../components/icons';
import { Link } from 'react-router';
import type { Job } from '#client/types';
import { errorHeading } from './job-words';

export function JobFailure({ error }: { error: NonNullable<Job['error']> }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={errorHeading(error)} role="alert">
      <Text size="sm">{error.message}</Text>
      <Text size="xs" c="gray.7" mt={4}>
        {error.code === 'preview_expired' ? 'The preview stays charged: it was delivered.' : 'Units reserved for this job were given back.'}
      </Text>
      <Button component={Link} to="/create" variant="light" size="xs" mt="sm">
        Start a new video
      </Button>
    </Alert>
  );
}
