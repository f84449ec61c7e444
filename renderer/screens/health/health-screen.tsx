// Health: what a monitor knows of its service — the one picked on the Overview, else the one
// watching the active profile — the status now and why, its components, uptime and version, when
// it was checked and when it will be next, uptime over an hour, a day and a week, and a timeline
// with the changes, restarts and deploys on it, and a saved monitor's incidents.
import { ErrorMessage } from '../../components/error-message';
import { FactsCard } from './health-facts';
import { IncidentsCard } from './health-incidents';
import { NotificationsCard } from './health-notifications';
import { useHealthState, useHealthTimeline } from '../../data/health';
import { useCheckHealth } from '../../data/health-actions';
import { useMonitors } from '../../data/monitors';
import { useHealthView } from '../../stores/health-view';
import { StatusCard } from './health-status-card';
import { SyntheticCard } from './health-synthetic';
import { TimelineSection } from './health-timeline';
import { UptimeCard } from './health-uptime';
import './health.css';
import { ScreenHeading } from '../../shell/screen-heading';

function MonitorPicker({ monitorId }: { monitorId: string | undefined }) {
  const monitors = useMonitors().data ?? [];
  const saved = monitors.filter((m) => !m.implicit);
  if (saved.length === 0) return null;
  return (
    <label className="inline-field">
      <span>Monitor</span>
      <select
        aria-label="Monitor"
        value={monitorId ?? ''}
        onChange={(event) => useHealthView.setState({ monitorId: event.target.value || undefined })}
      >
        <option value="">The active profile’s</option>
        {saved.map((m) => (
          <option key={m.id} value={m.id}>
            {m.name} ({m.profileName})
          </option>
        ))}
      </select>
    </label>
  );
}

export function HealthScreen() {
  const monitorId = useHealthView((s) => s.monitorId);
  const health = useHealthState(monitorId);
  const monitor = useMonitors().data?.find((m) => m.id === monitorId && !m.implicit);
  const week = useHealthTimeline('7d', monitorId);
  const check = useCheckHealth();
  const state = health.data;

  return (
    <section
      className="screen health-screen"
      data-state={state ? (state.checking ? 'checking' : 'ready') : 'loading'}
    >
      <div className="screen-head">
        <ScreenHeading>Health{state?.profileName ? ` — ${state.profileName}` : ''}</ScreenHeading>
        <div className="actions">
          <MonitorPicker monitorId={monitorId} />
          <button
            type="button"
            onClick={() => check.mutate(monitorId)}
            disabled={!state || state.checking || !state.profileId}
          >
            {state?.checking ? 'Checking…' : 'Check now'}
          </button>
        </div>
      </div>
      {health.isError ? (
        <ErrorMessage error={health.error} title="The health monitor could not be read." />
      ) : null}
      {check.error ? <ErrorMessage error={check.error} title="The check failed." /> : null}
      {state?.warning ? <p className="warning">{state.warning}</p> : null}
      {state?.idleReason ? <p className="warning">{state.idleReason}</p> : null}
      {state ? (
        <>
          {monitor ? <SyntheticCard view={monitor} /> : null}
          <div className="health-top">
            <StatusCard state={state} />
            <FactsCard state={state} saved={monitorId !== undefined} />
          </div>
          <div className="health-middle">
            <UptimeCard uptime={week.data?.uptime} />
            <NotificationsCard confirmPolls={state.confirmPolls} />
          </div>
          <TimelineSection intervalMs={state.intervalMs} monitorId={monitorId} />
          {monitor ? <IncidentsCard monitorId={monitor.id} monitorName={monitor.name} /> : null}
        </>
      ) : health.isPending ? (
        <p className="note" role="status">
          Loading…
        </p>
      ) : null}
    </section>
  );
}
