import { Notifications } from '@mantine/notifications';
import '@mantine/notifications/styles.css';
import notificationClasses from './notifications.module.css';

/**
 * The popups' and toasts' container, loaded after the first paint (app.tsx). A module of its own
 * so the lazy import names the component, not `@mantine/notifications` as a whole, whose
 * namespace would keep every export (and their transition and scroll-lock libraries) in the
 * first download of the pages that show a popup.
 */
export default function NotificationsHost() {
  return <Notifications position="top-right" limit={5} classNames={notificationClasses} />;
}
