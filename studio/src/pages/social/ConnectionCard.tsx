/** One provider: its state, its channels, and what can be done with it (connect, sync channels, replace the key, disconnect). */
import { Alert, Badge, Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notify } from '../../components/notify';
import { unwrap } from '#client/result';
import { api } from '../../api/client';
import { ProblemAlert } from '../../components/ProblemAlert';
import { ConfirmButton } from '../../components/ConfirmButton';
import { SOCIAL_KEYS } from './social-queries';
import { channelLabel, formatDateTime, PROVIDER_LABEL, type Connection, type Provider } from './social-words';

interface Props {
  provider: Provider;
  connection: Connection | undefined;
  onConnect: (provider: Provider) => void;
}

export function ConnectionCard({ provider, connection, onConnect }: Props) {
  const queries = useQueryClient();
  const name = PROVIDER_LABEL[provider];
  const refresh = () => queries.invalidateQueries({ queryKey: SOCIAL_KEYS.connections });

  const sync = useMutation({
    mutationFn: async () => (await unwrap(api.POST('/social/accounts/sync', { body: { provider } }))).data,
    onSuccess: (result) => {
      void refresh();
      const changes = result.added.length + result.removed.length;
      notify(changes ? `${name}: ${result.added.length} channel(s) added, ${result.removed.length} removed.` : `${name}: the channels are up to date.`, 'green');
    },
  });
  const disconnect = async () => {
    await unwrap(api.DELETE('/social/connections/{provider}', { params: { path: { provider } } }));
    await refresh();
    notify(`${name} disconnected.`);
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby={`connection-${provider}`}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={4} id={`connection-${provider}`}>
            {name}
          </Title>
          {connection ? (
            <Badge variant="dot" color={connection.status === 'active' ? 'green' : 'red'}>{connection.status === 'active' ? 'Connected' : 'Needs a new key'}</Badge>
          ) : (
            <Badge variant="dot" color="gray">
              Not connected
            </Badge>
          )}
        </Group>
        {!connection && (
          <>
            <Text size="sm" c="gray.7">
              Connect {name} with its API key to publish videos to the channels you have linked there.
            </Text>
            <Group>
              <Button onClick={() => onConnect(provider)} aria-label={`Connect ${name}`}>
                Connect
              </Button>
            </Group>
          </>
        )}
        {connection && (
          <>
            <Text size="sm" c="gray.7">
              {connection.key_hint ? `Key ${connection.key_hint} · ` : ''}Connected {formatDateTime(connection.connected_at)} · Channels checked {formatDateTime(connection.synced_at)}
            </Text>
            {connection.status === 'error' && (
              <Alert color="red" variant="light" title={`${name} refused the saved key`}>
                {connection.last_error?.message ?? 'The key may have been revoked.'} Replace the key to post again.
              </Alert>
            )}
            {connection.channels.length === 0 ? (
              <Text size="sm">No channels yet: link a network in your {name} dashboard, then sync channels.</Text>
            ) : (
              <List size="sm" aria-label={`${name} channels`}>
                {connection.channels.map((channel) => (
                  <List.Item key={channel.id}>
                    {channelLabel(channel)}{' '}
                    {!channel.active && (
                      <Badge size="xs" color="gray.8" variant="outline">
                        inactive
                      </Badge>
                    )}
                  </List.Item>
                ))}
              </List>
            )}
            <ProblemAlert error={sync.error} onClose={sync.reset} />
            <Group gap="xs">
              <Button variant="light" onClick={() => sync.mutate()} loading={sync.isPending} aria-label={`Sync channels of ${name}`}>
                Sync channels
              </Button>
              <Button variant="default" onClick={() => onConnect(provider)} aria-label={`Replace key of ${name}`}>
                Replace key
              </Button>
              <ConfirmButton
                label="Disconnect"
                aria-label={`Disconnect ${name}`}
                title={`Disconnect ${name}?`}
                message={`The saved key is deleted and you can no longer post through ${name} until you connect it again. Posts already sent stay at the provider.`}
                onConfirm={disconnect}
              />
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  );
}
