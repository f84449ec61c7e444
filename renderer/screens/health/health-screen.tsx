// Health: what the core's monitor knows of the active profile's service — the status now and
// why, its components, uptime and version, when it was checked and when it will be next, uptime
// over an hour, a day and a week, and a timeline with the changes, restarts and deploys on it.
import { useState } from 'react';
import { bridge } from '../../bridge';
import { ErrorMessage } from '../../components/error-message';
import { FactsCard } from './health-facts';
import { startHealthNotifications } from './health-notifier';
import { NotificationsCard } from './health-notifications';
import { useHealthState, useHealthTimeline } from './health-queries';
import { StatusCard } from './health-status-card';
import { TimelineSection } from './health-timeline';
import { UptimeCard } from './health-uptime';
import './health.css';

// Transitions notify whichever screen is showing; this module is loaded with the app (app.tsx).
startHealthNotifications();

export function HealthScreen() {
  const health = useHealthState();
  const week = useHealthTimeline('7d');
  const [error, setError] = useState<unknown>();
  const state = health.data;

  async function checkNow() {
    setError(undefined);
    try {
      await bridge.health.check({});
    } catch (e) {
      setError(e);
    }
  }

  return (
    <section
      className="screen health-screen"
      data-state={state ? (state.checking ? 'checking' : 'ready') : 'loading'}
    >
      <div className="screen-head">
        <h2>Health</h2>
        <div className="actions">
          <button
            type="button"
            onClick={() => void checkNow()}
            disabled={!state || state.checking || !state.profileId}
          >
            {state?.checking ? 'Checking…' : 'Check now'}
          </button>
        </div>
      </div>
      {health.isError ? (
        <ErrorMessage error={health.error} title="The health monitor could not be read." />
      ) : null}
      {error ? <ErrorMessage error={error} title="The check failed." /> : null}
      {state?.warning ? <p className="warning">{state.warning}</p> : null}
      {state?.idleReason ? <p className="warning">{state.idleReason}</p> : null}
      {state ? (
        <>
          <div className="health-top">
            <StatusCard state={state} />
            <FactsCard state={state} />
          </div>
          <div className="health-middle">
            <UptimeCard uptime={week.data?.uptime} />
            <NotificationsCard confirmPolls={state.confirmPolls} />
          </div>
          <TimelineSection intervalMs={state.intervalMs} />
        </>
      ) : health.isPending ? (
        <p className="note" role="status">
          Loading…
        </p>
      ) : null}
    </section>
  );
}
