/**
 * While an upload is on its way to storage, leaving would drop it: another page of the studio asks
 * first (a dialog), and a reload or closing the tab gets the browser's own question.
 */
import { useEffect } from 'react';
import { Button, Group, Modal, Text } from '@mantine/core';
import { useBlocker } from 'react-router';
import { useUploadsInFlight } from '../api/uploads-in-flight';

export function LeaveGuard() {
  const uploading = useUploadsInFlight() > 0;
  const blocker = useBlocker(({ currentLocation, nextLocation }) => uploading && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (!uploading) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [uploading]);

  // The upload ended while the question was open: nothing is lost any more, so go on.
  useEffect(() => {
    if (!uploading && blocker.state === 'blocked') blocker.proceed();
  }, [uploading, blocker]);

  return (
    <Modal opened={blocker.state === 'blocked'} onClose={() => blocker.reset?.()} title="Leave while a file is uploading?" centered>
      <Text size="sm">A file is still being sent. If you leave this page now, the upload stops and you will have to choose the file again.</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={() => blocker.reset?.()}>
          Stay until it finishes
        </Button>
        <Button color="red.8" onClick={() => blocker.proceed?.()}>
          Leave and stop the upload
        </Button>
      </Group>
    </Modal>
  );
}
