/** A short confirmation in the corner; its close button needs a name (Mantine gives it none). */
import { notifications } from '@mantine/notifications';

export function notify(message: string, color?: string): void {
  notifications.show({ message, color, closeButtonProps: { 'aria-label': 'Dismiss notification' } });
}
