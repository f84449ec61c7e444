// The active profile, switchable from anywhere, with whether it answers.
import { useState } from 'react';
import { ErrorMessage } from '../components/error-message';
import { useHealthState } from '../data/health';
import { switchProfile, useConnection, useProfiles } from '../data/profiles';
import { useHostLink } from '../stores/host-link';
import { HEALTH_SAMPLE_FRESH_MS, type MonitorStatus } from '../../shared/health';

const MONITOR_WORDS: Record<MonitorStatus, { label: string; tone: string } | undefined> = {
  unknown: undefined,
  healthy: { label: 'Connected', tone: 'ok' },
  degraded: { label: 'Service degraded', tone: 'warn' },
  unhealthy: { label: 'Service unhealthy', tone: 'bad' },
  unreachable: { label: 'Unreachable', tone: 'bad' },
  'key-rejected': { label: 'Key rejected', tone: 'bad' },
};

export function ProfileSwitcher() {
  const profiles = useProfiles();
  const [error, setError] = useState<unknown>();
  const active = profiles.data?.find((p) => p.active);
  const health = useHealthState();
  const sample = health.data?.last;
  // The health monitor checks the active profile from the start: a fresh check of it answers
  // already, so the first screen says "Connected" without a second call; asked during
  // the monitor's first check, the core answers once that check is over (within a second). A
  // profile the monitor has not checked (just switched to, or a slow first check) gets a
  // connection test.
  const monitored =
    sample !== undefined &&
    sample.profileId === active?.id &&
    MONITOR_WORDS[sample.status] !== undefined &&
    Date.now() - sample.at < HEALTH_SAMPLE_FRESH_MS;
  const connection = useConnection(active?.id, health.isFetched && !monitored);
  // The health monitor's latest check of this profile, when it is newer than the connection test:
  // "Connected" must not stay up through an outage the monitor has seen.
  const fromMonitor =
    sample && sample.profileId === active?.id && sample.at >= connection.dataUpdatedAt
      ? MONITOR_WORDS[sample.status]
      : undefined;
  // The web host gone: what the page last heard about the service is no longer known.
  const hostUp = useHostLink((s) => s.up);
  const status = !hostUp
    ? { label: 'Web host stopped', tone: 'bad' }
    : connection.isFetching || (health.isPending && active)
      ? { label: 'Checking…', tone: 'muted' }
      : fromMonitor
        ? fromMonitor
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
          disabled={!profiles.data}
          onChange={(event) => {
            setError(undefined);
            switchProfile(event.target.value).catch(setError);
          }}
        >
          {profiles.data ? (
            profiles.data.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))
          ) : (
            // The core may still be opening (the page and the window come up meanwhile).
            <option value="">{profiles.isError ? 'Profiles not available' : 'Starting…'}</option>
          )}
        </select>
      </label>
      <span
        className={`connection connection-${status.tone}`}
        data-testid="connection-status"
        title={
          !hostUp
            ? 'The console’s web host is not answering. Is `npm run web` still running? Reload the page once it is.'
            : fromMonitor
              ? health.data?.lastError
              : connection.data?.error?.message
        }
      >
        {status.label}
      </span>
      {error ? <ErrorMessage error={error} /> : null}
    </div>
  );
}
