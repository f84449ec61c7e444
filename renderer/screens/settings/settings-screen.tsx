// Settings: the console's version and data folder, the recorded history (what the folder holds, how
// much history is kept, deleting it), how the desktop app keeps itself up to date (on or off, the
// stable or beta channel, a check now, "Restart to update"), and the name people acknowledge
// incidents under.
import { useState } from 'react';
import type { UpdateStatus } from '../../../shared/bridge';
import { ErrorMessage } from '../../components/error-message';
import { checkForUpdates, installUpdate, setUpdates, useAppInfo, useUpdates } from '../../data/app';
import { ScreenHeading } from '../../shell/screen-heading';
import { IncidentNameCard } from './incident-name-card';
import { HistorySettings } from './history-settings';

/** Where the updates stand, in words. */
function updateWords(status: UpdateStatus): string {
  switch (status.phase) {
    case 'checking':
      return 'Looking for a newer version…';
    case 'up-to-date':
      return `Up to date: ${status.current} is the newest on the ${status.channel} channel.`;
    case 'downloading':
      return `Downloading ${status.latest} in the background (${status.percent ?? 0}%)…`;
    case 'ready':
      return `${status.latest} is downloaded and its checksum verified: restart to install it.`;
    case 'error':
      return `The last check failed: ${status.error ?? 'no reason given'}.`;
    default:
      return status.enabled ? 'Checked at start and once a day.' : 'Not checked: updates are off.';
  }
}

export function SettingsScreen() {
  const info = useAppInfo();
  const updates = useUpdates();
  const [error, setError] = useState<unknown>();
  const status = updates.data;
  const act = (run: () => Promise<void>) => () => {
    setError(undefined);
    run().catch(setError);
  };
  return (
    <section className="screen">
      <ScreenHeading>Settings</ScreenHeading>
      <section className="card" aria-labelledby="settings-about">
        <h2 id="settings-about">This console</h2>
        <dl className="facts">
          <dt>Version</dt>
          <dd>{info.data?.version}</dd>
          <dt>Data folder</dt>
          <dd>
            <code>{info.data?.dataDir}</code>
          </dd>
        </dl>
      </section>
      <HistorySettings />
      <section className="card form" aria-labelledby="settings-updates">
        <h2 id="settings-updates">Updates</h2>
        {updates.isError ? <ErrorMessage error={updates.error} /> : null}
        {status && !status.supported ? (
          <p className="note">
            {info.data?.transport === 'web'
              ? 'This console runs in a browser from the web host: updates come with the desktop app.'
              : status.error
                ? status.error
                : 'This copy of the app cannot update itself (it runs from source, or on Linux is neither an AppImage nor a .deb): update it as it was installed.'}
          </p>
        ) : null}
        {status?.supported ? (
          <>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={status.enabled}
                disabled={status.lockedOffBy !== undefined}
                onChange={act(() => setUpdates({ enabled: !status.enabled }))}
              />
              Check for updates at start and once a day, and download them in the background
            </label>
            {status.lockedOffBy ? (
              <p className="field-hint">Turned off for this computer by {status.lockedOffBy}.</p>
            ) : null}
            <label>
              Channel
              <select
                value={status.channel}
                disabled={!status.enabled}
                onChange={(e) => act(() => setUpdates({ channel: e.target.value as 'stable' | 'beta' }))()}
              >
                <option value="stable">Stable: releases only</option>
                <option value="beta">Beta: pre-releases too</option>
              </select>
            </label>
            <p role="status">{updateWords(status)}</p>
            <div className="actions">
              <button
                type="button"
                className="secondary"
                disabled={!status.enabled || status.phase === 'checking' || status.phase === 'downloading'}
                onClick={act(checkForUpdates)}
              >
                Check now
              </button>
              {status.phase === 'ready' ? (
                <button type="button" onClick={act(installUpdate)}>
                  Restart to update
                </button>
              ) : null}
            </div>
          </>
        ) : null}
        {error ? <ErrorMessage error={error} /> : null}
      </section>
      <IncidentNameCard />
    </section>
  );
}
