/**
 * A button that asks before it destroys: the dialog names what goes and that it cannot be undone. The
 * dialog's own button repeats the verb, so "Delete" then "Delete" (or "Revoke" then "Revoke").
 */
import type { ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text, type ButtonProps } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { ProblemAlert } from '../../components/ProblemAlert';

interface ConfirmButtonProps extends Omit<ButtonProps, 'children' | 'onClick'> {
  /** The verb on both buttons, e.g. "Delete". */
  label: string;
  title: string;
  message: ReactNode;
  onConfirm: () => Promise<unknown>;
  /** Called once the action succeeded and the dialog closed. */
  onDone?: () => void;
}

export function ConfirmButton({ label, title, message, onConfirm, onDone, ...buttonProps }: ConfirmButtonProps) {
  const [opened, { open, close }] = useDisclosure(false);
  const action = useMutation({
    mutationFn: onConfirm,
    onSuccess: () => {
      close();
      onDone?.();
    },
  });
  const dismiss = () => {
    action.reset();
    close();
  };
  return (
    <>
      <Button color="red" variant="light" size="xs" {...buttonProps} onClick={open}>
        {label}
      </Button>
      <Modal opened={opened} onClose={dismiss} title={title} centered closeButtonProps={{ 'aria-label': 'Close' }}>
        <Stack>
          <Text size="sm">{message}</Text>
          <ProblemAlert error={action.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={dismiss}>
              Cancel
            </Button>
            <Button color="red" loading={action.isPending} onClick={() => action.mutate()}>
              {label}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
