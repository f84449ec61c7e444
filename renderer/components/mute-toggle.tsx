// Notifications muted or not, from the header (issue 14): for every monitor, in the browser and
// in the desktop app alike (the core decides; the setting is kept in settings.json).
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { bridge } from '../bridge';
import { queryKeys } from '../data/query-keys';
import { ErrorMessage } from './error-message';

export const notificationsMutedQuery = queryOptions({
  queryKey: queryKeys.notificationsMuted(),
  queryFn: () => bridge.monitors.muted({}),
  staleTime: Infinity,
});

/** Whether notifications are muted in the app (the header's button; the Health screen says so too). */
export const useNotificationsMuted = () => useQuery(notificationsMutedQuery);

export function MuteToggle() {
  const queryClient = useQueryClient();
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
          bridge.monitors.mute({ muted: !on }).then(
            (next) => queryClient.setQueryData(queryKeys.notificationsMuted(), next),
            (e: unknown) => setError(e),
          );
        }}
      >
        {on ? 'Notifications muted' : 'Mute notifications'}
      </button>
      {error ? <ErrorMessage error={error} /> : null}
    </>
  );
}
