/**
 * A button that asks before it destroys: the dialog names what goes and that it cannot be undone. The
 * dialog's own button repeats the verb, so "Delete" then "Delete" (or "Revoke" then "Revoke").
 */
import type { ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text, type ButtonProps } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { ProblemAlert } from './ProblemAlert';

interface ConfirmButtonProps extends Omit<ButtonProps, 'children' | 'onClick'> {
  /** The verb on both buttons, e.g. "Delete". */
  label: string;
  /** The dialog's button when it should say more than the label, e.g. "Delete post". */
  confirmLabel?: string;
  /** The button's name where its words alone are ambiguous (one per row): "Delete post 12". */
  'aria-label'?: string;
  title: string;
  message: ReactNode;
  onConfirm: () => Promise<unknown>;
  /** Called once the action succeeded and the dialog closed. */
  onDone?: () => void;
}

export function ConfirmButton({ label, confirmLabel, title, message, onConfirm, onDone, ...buttonProps }: ConfirmButtonProps) {
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
      <Modal opened={opened} onClose={dismiss} title={title} centered>
        <Stack>
          <Text size="sm">{message}</Text>
          <ProblemAlert error={action.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={dismiss}>
              Cancel
            </Button>
            {/* red.8: white on red.6 is below 4.5:1 */}
            <Button color="red.8" loading={action.isPending} onClick={() => action.mutate()}>
              {confirmLabel ?? label}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
