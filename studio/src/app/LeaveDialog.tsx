/** The question LeaveGuard asks; its own chunk, loaded only when someone tries to leave during an upload. */
import { Button, Group, Modal, Text } from '@mantine/core';

export default function LeaveDialog({ onStay, onLeave }: { onStay: () => void; onLeave: () => void }) {
  return (
    <Modal opened onClose={onStay} title="Leave while a file is uploading?" centered>
      <Text size="sm">A file is still being sent. Leaving this page may stop it, and you would have to choose the file again.</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onStay}>
          Stay until it finishes
        </Button>
        <Button color="red.8" onClick={onLeave}>
          Leave anyway
        </Button>
      </Group>
    </Modal>
  );
}
