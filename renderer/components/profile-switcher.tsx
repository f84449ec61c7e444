// The active profile, switchable from anywhere, with whether it answers.
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { bridge } from '../bridge';
import { ErrorMessage } from './error-message';
import { useConnection, useProfiles } from './queries';

export function ProfileSwitcher() {
  const profiles = useProfiles();
  const queryClient = useQueryClient();
  const [error, setError] = useState<unknown>();
  const active = profiles.data?.find((p) => p.active);
  const connection = useConnection(active?.id);
  const status = connection.isFetching
    ? { label: 'Checking…', tone: 'muted' }
    : connection.data?.ok
      ? { label: 'Connected', tone: 'ok' }
      : connection.data
        ? { label: 'Not connected', tone: 'bad' }
        : { label: '', tone: 'muted' };
  return (
    <div className="profile-switcher">
      <label>
        <span className="visually-hidden">Profile</span>
        <select
          aria-label="Profile"
          value={active?.id ?? ''}
          onChange={async (event) => {
            setError(undefined);
            try {
              await bridge.profiles.use({ id: event.target.value });
              await queryClient.invalidateQueries({ queryKey: ['connection'] });
            } catch (e) {
              setError(e);
            }
          }}
        >
          {profiles.data?.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <span
        className={`connection connection-${status.tone}`}
        data-testid="connection-status"
        title={connection.data?.error?.message}
      >
        {status.label}
      </span>
      {error ? <ErrorMessage error={error} /> : null}
    </div>
  );
}
