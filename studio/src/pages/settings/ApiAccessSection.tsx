/** Settings → API access: keys for scripts and integrations, which act for the whole account. */
import { useState } from 'react';
import { Divider, Paper, Stack, Text, Title } from '@mantine/core';
import { QueryStatus } from '../../components/QueryStatus';
import { CreateKeyForm } from './CreateKeyForm';
import { KeysTable } from './KeysTable';
import { NewKeyModal } from './NewKeyModal';
import { useKeys, type CreatedApiKey } from './keys-api';

export function ApiAccessSection() {
  const keys = useKeys();
  const [created, setCreated] = useState<CreatedApiKey>();
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="api-access-title">
      <Stack>
        <div>
          <Title order={3} id="api-access-title">
            API access
          </Title>
          <Text size="sm">Keys let scripts and integrations use the API for this account. Send one as “Authorization: Bearer …”.</Text>
        </div>
        <QueryStatus query={keys} loading="Loading keys" size="sm" />
        {keys.data && keys.data.length === 0 && <Text size="sm">No keys yet. Create one below when a script or integration needs the API.</Text>}
        {keys.data && keys.data.length > 0 && <KeysTable keys={keys.data} />}
        <Divider />
        <Title order={4}>New key</Title>
        <CreateKeyForm onCreated={setCreated} />
      </Stack>
      <NewKeyModal created={created} onClose={() => setCreated(undefined)} />
    </Paper>
  );
}
