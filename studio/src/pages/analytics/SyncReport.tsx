/** What the last sync said about the providers that failed or skipped accounts; they keep their earlier figures. */
import { Alert, List } from '@mantine/core';
import { PROVIDER_LABEL, type SyncResult } from './analytics-words';

export function SyncReport({ result, onClose }: { result: SyncResult; onClose: () => void }) {
  const problems = result.providers.flatMap((p) => {
    const name = PROVIDER_LABEL[p.provider];
    if (p.status === 'failed') return [`${name} could not be read (${p.error.message}); its earlier figures are shown.`];
    return (p.skipped_accounts ?? []).map((skipped) => `${name} skipped channel ${skipped.account_id}: ${skipped.reason}`);
  });
  if (problems.length === 0) return null;
  return (
    <Alert color="orange" variant="light" title="Some figures could not be synced" withCloseButton closeButtonLabel="Dismiss" onClose={onClose}>
      <List size="sm">
        {problems.map((problem) => (
          <List.Item key={problem}>{problem}</List.Item>
        ))}
      </List>
    </Alert>
  );
}
