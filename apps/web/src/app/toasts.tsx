import '@mantine/core/styles/Notification.css';
import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';

/** The toasts' container, with its styles and transitions: loaded with the first toast. */
export default function Toasts() {
  return <Notifications position="top-center" limit={3} />;
}
