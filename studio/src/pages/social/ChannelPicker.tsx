/** The channels one post goes to: all from one provider, since a post is sent through one connection. */
import { Checkbox, Radio, Group, Stack, Text } from '@mantine/core';
import { channelLabel, PROVIDER_LABEL, type Connection, type Provider } from './social-words';

interface Props {
  connections: Connection[];
  provider: Provider | null;
  onProviderChange: (provider: Provider) => void;
  accountIds: string[];
  onAccountIdsChange: (ids: string[]) => void;
  error?: string;
}

export function ChannelPicker({ connections, provider, onProviderChange, accountIds, onAccountIdsChange, error }: Props) {
  const connection = connections.find((c) => c.provider === provider);
  return (
    <Stack gap="sm">
      {connections.length > 1 && (
        <Radio.Group label="Provider" value={provider ?? ''} onChange={(value) => onProviderChange(value as Provider)} withAsterisk>
          <Group mt="xs">
            {connections.map((c) => (
              <Radio key={c.provider} value={c.provider} label={PROVIDER_LABEL[c.provider]} disabled={c.status !== 'active'} />
            ))}
          </Group>
        </Radio.Group>
      )}
      {connection && connection.channels.length === 0 && (
        <Text size="sm" c="gray.7">
          {PROVIDER_LABEL[connection.provider]} has no channels yet: link one in its dashboard, then sync channels above.
        </Text>
      )}
      {connection && connection.channels.length > 0 && (
        <Checkbox.Group
          label="Channels"
          description={connections.length > 1 ? `Channels linked to ${PROVIDER_LABEL[connection.provider]}` : undefined}
          value={accountIds}
          onChange={onAccountIdsChange}
          error={error}
          withAsterisk
        >
          <Stack gap={6} mt="xs">
            {connection.channels.map((channel) => (
              <Checkbox
                key={channel.id}
                value={channel.id}
                label={channelLabel(channel)}
                description={channel.active ? undefined : 'Inactive at the provider: reconnect it there, then sync channels'}
                disabled={!channel.active}
              />
            ))}
          </Stack>
        </Checkbox.Group>
      )}
    </Stack>
  );
}
