/** Both providers side by side, connected or not, with the connect dialog. */
import { useState } from 'react';
import { Modal, SimpleGrid, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { QueryStatus } from '../../components/QueryStatus';
import { ConnectForm } from './ConnectForm';
import { ConnectionCard } from './ConnectionCard';
import { fetchConnections, SOCIAL_KEYS } from './social-queries';
import { PROVIDER_LABEL, PROVIDERS, type Provider } from './social-words';

export function ConnectionsSection() {
  const connections = useQuery({ queryKey: SOCIAL_KEYS.connections, queryFn: fetchConnections });
  const [connecting, setConnecting] = useState<Provider | null>(null);

  return (
    <Stack component="section" aria-labelledby="connections-heading" gap="sm">
      <Title order={3} id="connections-heading">
        Connections
      </Title>
      <QueryStatus query={connections} loading="Loading connections" size="sm" />
      {connections.data && (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {PROVIDERS.map((provider) => (
            <ConnectionCard key={provider} provider={provider} connection={connections.data.find((c) => c.provider === provider)} onConnect={setConnecting} />
          ))}
        </SimpleGrid>
      )}
      <Modal opened={connecting !== null} onClose={() => setConnecting(null)} title={connecting ? `Connect ${PROVIDER_LABEL[connecting]}` : ''} centered closeButtonProps={{ 'aria-label': 'Close' }}>
        {connecting && <ConnectForm provider={connecting} onDone={() => setConnecting(null)} />}
      </Modal>
    </Stack>
  );
}
