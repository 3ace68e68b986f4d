/** Keeps the job's clean reaction clip in the library, to caption again later without generating. */
import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { IconBookmark } from '../../components/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { unwrap } from '#client/result';
import { api } from '../../api/client';
import { ProblemAlert } from '../../components/ProblemAlert';

/** `compact`: a small button, for a card among others (a batch's). */
export function SaveReactionButton({ jobId, compact = false }: { jobId: number; compact?: boolean }) {
  const queries = useQueryClient();
  const save = useMutation({
    mutationFn: async () => (await unwrap(api.POST('/reactions', { body: { job_id: jobId } }))).data,
    onSuccess: () => queries.invalidateQueries({ queryKey: ['reactions'] }),
  });
  return (
    <Stack gap="xs">
      <Group gap="sm">
        <Button variant="default" size={compact ? 'xs' : 'sm'} leftSection={<IconBookmark size={compact ? 14 : 16} />} onClick={() => save.mutate()} loading={save.isPending} disabled={save.isSuccess}>
          {compact ? 'Save reaction' : 'Save reaction to library'}
        </Button>
        {save.isSuccess && (
          <Text size="sm" role="status">
            Saved. <Anchor component={Link} to="/library" underline="always">Open the library</Anchor>
          </Text>
        )}
      </Group>
      <ProblemAlert error={save.error} onClose={save.reset} />
    </Stack>
  );
}
