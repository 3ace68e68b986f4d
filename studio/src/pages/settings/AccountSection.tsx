/** Who this is: the account's name, its plan and since when. */
import { Badge, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { unwrap } from '#client/result';
import { api } from '../../api/client';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useSession } from '../../session/session';

export function AccountSection() {
  const { session } = useSession();
  const account = useQuery({ queryKey: ['account'], queryFn: async () => (await unwrap(api.GET('/account'))).data });
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="account-title">
      <Stack gap="xs">
        <Title order={3} id="account-title">
          Account
        </Title>
        <ProblemAlert error={account.error} />
        {account.isPending && <Loader size="sm" aria-label="Loading account" />}
        {account.data && (
          <>
            <Group gap="xs">
              <Text fw={500}>{account.data.name}</Text>
              <Badge variant="light">{account.data.plan} plan</Badge>
            </Group>
            {session && <Text size="sm">Signed in as {session.user.email}</Text>}
            <Text size="sm">Since {new Date(account.data.created_at).toLocaleDateString(undefined, { dateStyle: 'long' })}</Text>
          </>
        )}
      </Stack>
    </Paper>
  );
}
