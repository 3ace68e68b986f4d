/** A short confirmation in the corner (the theme names its close button). */
import { notifications } from '@mantine/notifications';

export function notify(message: string, color?: string): void {
  notifications.show({ message, color });
}
