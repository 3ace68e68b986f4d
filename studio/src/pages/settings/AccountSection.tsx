/** Who this is: the account's name, its plan and since when. */
import { Anchor, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { QueryStatus } from '../../components/QueryStatus';
import { useAccount } from '../plans/plans-api';
import { useSession } from '../../session/session';

export function AccountSection() {
  const { session } = useSession();
  const account = useAccount();
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="account-title">
      <Stack gap="xs">
        <Title order={3} id="account-title">
          Account
        </Title>
        <QueryStatus query={account} loading="Loading account" size="sm" />
        {account.data && (
          <>
            <Group gap="xs">
              <Text fw={500}>{account.data.name}</Text>
              <Badge variant="light">{account.data.plan} plan</Badge>
              <Anchor component={Link} to="/plans" size="sm" underline="always">
                Change plan
              </Anchor>
            </Group>
            {session && <Text size="sm">Signed in as {session.user.email}</Text>}
            <Text size="sm">Since {new Date(account.data.created_at).toLocaleDateString(undefined, { dateStyle: 'long' })}</Text>
          </>
        )}
      </Stack>
    </Paper>
  );
}
