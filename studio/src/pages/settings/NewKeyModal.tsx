/** The raw key, once: the API keeps only its hash, so closing this dialog is the last chance to copy it. */
import { Alert, Button, CopyButton, Group, Modal, Stack, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '../../components/icons';
import type { CreatedApiKey } from './keys-api';

export function NewKeyModal({ created, onClose }: { created: CreatedApiKey | undefined; onClose: () => void }) {
  return (
    <Modal opened={!!created} onClose={onClose} title="Your new API key" size="lg" closeOnClickOutside={false} closeButtonProps={{ 'aria-label': 'Close' }}>
      {created && (
        <Stack>
          <Alert color="red" icon={<IconAlertTriangle size={18} />} title="Copy it now">
            This key won’t be shown again. Store it somewhere safe, like a password manager; if it is lost, revoke it and create another.
          </Alert>
          <TextInput label="API key" value={created.key} readOnly onFocus={(event) => event.currentTarget.select()} styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }} />
          <Group justify="space-between">
            <CopyButton value={created.key}>
              {({ copied, copy }) => (
                <Button variant="default" leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />} onClick={copy}>
                  {copied ? 'Copied' : 'Copy key'}
                </Button>
              )}
            </CopyButton>
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
