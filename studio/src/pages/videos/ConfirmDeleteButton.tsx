/** A delete that asks first: what goes and that it cannot be undone, with the API's refusal shown in place. */
import type { ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconTrash } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { ProblemAlert } from '../../components/ProblemAlert';

interface Props {
  /** The button's words, e.g. "Delete video". */
  label: string;
  /** A fuller accessible name where several such buttons share a page; it starts with the label. */
  name?: string;
  title: string;
  children: ReactNode;
  onDelete: () => Promise<unknown>;
  onDeleted: () => void;
  size?: 'xs' | 'sm';
}

export function ConfirmDeleteButton({ label, name, title, children, onDelete, onDeleted, size = 'sm' }: Props) {
  const [opened, { open, close }] = useDisclosure(false);
  const remove = useMutation({ mutationFn: onDelete, onSuccess: () => (close(), onDeleted()) });
  return (
    <>
      <Button color="red" variant="light" size={size} leftSection={<IconTrash size={16} />} onClick={open} aria-label={name}>
        {label}
      </Button>
      <Modal opened={opened} onClose={close} title={title} closeButtonProps={{ 'aria-label': 'Close' }}>
        <Stack gap="sm">
          <Text size="sm">{children}</Text>
          <Text size="sm" fw={500}>
            This cannot be undone.
          </Text>
          <ProblemAlert error={remove.error} onClose={remove.reset} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Keep it
            </Button>
            <Button color="red.8" onClick={() => remove.mutate()} loading={remove.isPending}>
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
