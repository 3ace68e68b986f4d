/**
 * Asks the browser for permission to notify, only when the person clicks (browsers refuse a prompt
 * that comes unasked); the studio then notifies when a job finishes while its tab is in the background.
 */
import { useState } from 'react';
import { Button, Text } from '@mantine/core';

const supported = () => typeof Notification !== 'undefined';

export function NotifyWhenDoneButton() {
  const [permission, setPermission] = useState(() => (supported() ? Notification.permission : 'denied'));
  if (!supported()) return null;
  if (permission === 'granted') {
    return (
      <Text size="xs" c="gray.7">
        Your browser will tell you when it finishes, even from another tab.
      </Text>
    );
  }
  if (permission === 'denied') return null;
  return (
    <div>
      <Button variant="light" size="xs" onClick={() => void Notification.requestPermission().then(setPermission)}>
        Notify me when it finishes
      </Button>
    </div>
  );
}
