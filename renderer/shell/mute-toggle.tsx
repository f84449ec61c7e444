// Notifications muted or not, from the header: for every monitor, in the browser and in the
// desktop app alike (the core decides; the setting is kept in settings.json).
import { useMuteNotifications, useNotificationsMuted } from '../data/monitors';
import { ErrorMessage } from '../components/error-message';

export function MuteToggle() {
  const muted = useNotificationsMuted();
  const mute = useMuteNotifications();
  if (!muted.data) return null;
  const on = muted.data.muted;
  return (
    <>
      <button
        type="button"
        className={`secondary mute-toggle${on ? ' mute-on' : ''}`}
        aria-pressed={on}
        title={on ? 'Status-change notifications are muted' : 'Status-change notifications are on'}
        onClick={() => mute.mutate(!on)}
      >
        {on ? 'Notifications muted' : 'Mute notifications'}
      </button>
      {mute.error ? <ErrorMessage error={mute.error} /> : null}
    </>
  );
}
