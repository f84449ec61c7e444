// Notifications muted or not, from the header: for every monitor, in the browser and in the
// desktop app alike (the core decides; the setting is kept in settings.json).
import { useState } from 'react';
import { ErrorMessage } from '../components/error-message';
import { muteNotifications, useNotificationsMuted } from '../data/monitors';

export function MuteToggle() {
  const muted = useNotificationsMuted();
  const [error, setError] = useState<unknown>();
  if (!muted.data) return null;
  const on = muted.data.muted;
  return (
    <>
      <button
        type="button"
        className={`secondary mute-toggle${on ? ' mute-on' : ''}`}
        aria-pressed={on}
        title={on ? 'Status-change notifications are muted' : 'Status-change notifications are on'}
        onClick={() => {
          setError(undefined);
          muteNotifications(!on).catch(setError);
        }}
      >
        {on ? 'Notifications muted' : 'Mute notifications'}
      </button>
      {error ? <ErrorMessage error={error} /> : null}
    </>
  );
}
