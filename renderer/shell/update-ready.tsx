// "Restart to update" in the header once the desktop app has downloaded a newer version: the
// update is installed on the user's word only. The web host has no updates and asks nothing.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorMessage } from '../components/error-message';
import { installUpdate, updatesQuery, useAppInfo } from '../data/app';

export function UpdateReady() {
  const info = useAppInfo();
  const updates = useQuery({ ...updatesQuery, enabled: info.data?.transport === 'electron' });
  const [error, setError] = useState<unknown>();
  if (updates.data?.phase !== 'ready') return null;
  return (
    <>
      <button
        type="button"
        className="update-ready"
        title={`Agent Console ${updates.data.latest ?? ''} is downloaded and checked`}
        onClick={() => installUpdate().catch(setError)}
      >
        Restart to update to {updates.data.latest}
      </button>
      {error ? <ErrorMessage error={error} /> : null}
    </>
  );
}
