/** When each provider's figures were last fetched, and whether that sync covered the whole window. */
import { List, Text } from '@mantine/core';
import { formatDateTime, PROVIDER_LABEL, type Overview } from './analytics-words';

export function ProviderSyncState({ providers }: { providers: Overview['providers'] }) {
  return (
    <List size="sm" aria-label="Sync state per provider">
      {providers.map((p) => (
        <List.Item key={p.provider}>
          <Text span size="sm" fw={500}>
            {PROVIDER_LABEL[p.provider]}:
          </Text>{' '}
          {p.synced_at ? `synced ${formatDateTime(p.synced_at)} for ${p.synced_days} days` : 'never synced — press Sync now'}
          {p.synced_at && !p.covers_window && ' (fewer days than this window: sync now to fill it)'}
        </List.Item>
      ))}
    </List>
  );
}
