/** A button that asks before doing something that cannot be undone, and shows the API's refusal in the dialog. */
import { useState, type ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text, type ButtonProps } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { ProblemAlert } from '../../components/ProblemAlert';

interface ConfirmButtonProps extends Omit<ButtonProps, 'children'> {
  children: ReactNode;
  /** The button's accessible name where its text alone is ambiguous (one per row). */
  'aria-label'?: string;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
}

export function ConfirmButton({ children, title, message, confirmLabel, onConfirm, ...buttonProps }: ConfirmButtonProps) {
  const [opened, { open, close }] = useDisclosure(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

  async function confirm() {
    setBusy(true);
    setError(undefined);
    try {
      await onConfirm();
      close();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Button color="red" variant="light" {...buttonProps} onClick={open}>
        {children}
      </Button>
      <Modal opened={opened} onClose={close} title={title} centered closeButtonProps={{ 'aria-label': 'Close' }}>
        <Stack>
          <ProblemAlert error={error} />
          <Text size="sm">{message}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={busy}>
              Cancel
            </Button>
            <Button color="red.9" onClick={() => void confirm()} loading={busy}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
