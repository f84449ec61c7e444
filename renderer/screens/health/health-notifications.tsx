// Whether status changes reach the desktop, and the button that asks the browser's permission.
import { useState } from 'react';
import { useNotificationsMuted } from '../../data/monitors';
import { notificationSupport, type NotificationSupport } from '../../components/notification-support';
import { askNotificationPermission } from './health-notifier';

const WORDS: Record<NotificationSupport, string> = {
  granted: 'On: this browser shows a notification when the confirmed status changes.',
  denied: 'Blocked for this page. Allow notifications in the browser’s site settings to get them.',
  default: 'Off. Turn them on to hear about outages while this tab is in the background.',
  unsupported: 'This browser cannot show notifications.',
  'desktop-app': 'The app shows desktop notifications and colours its tray icon when the status changes.',
};

export function NotificationsCard({ confirmPolls }: { confirmPolls: number }) {
  const [support, setSupport] = useState(notificationSupport);
  const muted = useNotificationsMuted().data?.muted === true;
  return (
    <section className="card health-notifications" aria-labelledby="health-notifications-title">
      <h2 id="health-notifications-title">Notifications</h2>
      <p data-testid="notification-state">
        {muted
          ? 'Muted in the app: nothing is shown until you unmute (the button at the top of the window).'
          : WORDS[support]}
      </p>
      {support === 'default' ? (
        <button type="button" onClick={() => void askNotificationPermission().then(setSupport)}>
          Enable desktop notifications
        </button>
      ) : null}
      <p className="muted">
        A change is announced once it holds for {confirmPolls} checks in a row, so a status that flaps for a
        moment does not send a stream of notifications.
      </p>
    </section>
  );
}
