// The current status, in words a person can act on, and each component as the service reported it.
import { HEALTH_COMPONENTS } from '../../../shared/known-values';
import { describeComponents, STATUS_WORDS, type HealthMonitorState } from '../../../shared/health';
import { clockTime, dateTime } from './health-format';

function reason(state: HealthMonitorState): string {
  const last = state.last;
  if (!last) return state.idleReason ?? (state.checking ? 'Checking…' : 'Not checked yet.');
  const error = state.lastError ? ` ${state.lastError}` : '';
  switch (last.status) {
    case 'healthy':
      return 'All components operational.';
    case 'degraded':
      return `The service works, with problems: ${describeComponents(last.components) || 'see the components'}.`;
    case 'unhealthy':
      return last.httpStatus
        ? `The service answered HTTP ${last.httpStatus} instead of a health report.${error}`
        : `Critical components are down: ${describeComponents(last.components) || 'see the components'}.`;
    case 'unreachable':
      return `No answer from the service.${error}`;
    case 'key-rejected':
      return `The service refused this profile’s API key (HTTP ${last.httpStatus ?? '?'} ${last.errorCode ?? ''}); its health is not known.${error}`;
    default:
      return `The last check gave no answer about the service.${error}`;
  }
}

function Components({ state }: { state: HealthMonitorState }) {
  const report = state.lastReport;
  if (!report) return <p className="muted">No health report yet, so no components to show.</p>;
  const stale = state.last !== undefined && state.last.version === undefined;
  return (
    <>
      <ul className="health-components" aria-label="Components">
        {[
          ...HEALTH_COMPONENTS,
          // Components a service adds beyond the spec's four are shown too, as they came.
          ...Object.keys(report.components).filter(
            (k) => !(HEALTH_COMPONENTS as readonly string[]).includes(k),
          ),
        ].map((name) => {
          const value = (report.components as Record<string, unknown>)[name];
          const shown = typeof value === 'string' ? value : 'not reported';
          const level = value === 'operational' ? 'ok' : value === 'down' ? 'bad' : 'warn';
          return (
            <li key={name} className={`health-component health-component-${level}`}>
              <span className="health-component-name">{name}</span>
              <span className="health-component-value">{shown}</span>
            </li>
          );
        })}
      </ul>
      {stale ? (
        <p className="muted">As of the last report, at {dateTime(Date.parse(report.timestamp))}.</p>
      ) : null}
    </>
  );
}

export function StatusCard({ state }: { state: HealthMonitorState }) {
  const status = state.last?.status ?? 'unknown';
  const pending = state.last !== undefined && state.confirmed !== status;
  return (
    <section className={`card health-status health-${status}`} aria-labelledby="health-status-title">
      <h2 id="health-status-title">
        Status{state.profileName ? <span className="muted"> · {state.profileName}</span> : null}
      </h2>
      <p className="health-status-word" data-testid="health-status" data-status={status}>
        <span className="health-dot" aria-hidden="true" />
        {STATUS_WORDS[status]}
      </p>
      <p className="health-reason">{reason(state)}</p>
      {pending ? (
        <p className="health-pending" data-testid="health-pending">
          Not confirmed yet: notifications and the tray still say{' '}
          {STATUS_WORDS[state.confirmed].toLowerCase()} until this holds for {state.confirmPolls} checks in a
          row.
        </p>
      ) : state.confirmedSince !== undefined && state.confirmed !== 'unknown' ? (
        <p className="muted">
          {STATUS_WORDS[state.confirmed]} since {clockTime(state.confirmedSince)}.
        </p>
      ) : null}
      <Components state={state} />
    </section>
  );
}
