// Uptime, version, the last check and the countdown to the next, and the poll interval.
import { MIN_HEALTH_INTERVAL_MS, type HealthMonitorState } from '../../../shared/health';
import { ErrorMessage } from '../../components/error-message';
import { useNow } from '../../components/use-now';
import { useConfigureHealth } from '../../data/health-actions';
import { clockTime, dateTime, duration, intervalWords } from './health-format';

const INTERVALS = [10_000, 30_000, 60_000, 120_000, 300_000, 900_000, 3_600_000];
const SUGGESTED_INTERVAL = 60_000;

function NextCheck({ state }: { state: HealthMonitorState }) {
  const now = useNow(state.running && state.nextCheckAt !== undefined);
  if (state.checking) return <>checking now…</>;
  if (!state.running) return <>automatic checks are off (use Check now)</>;
  if (state.nextCheckAt === undefined) return <>—</>;
  const seconds = Math.max(0, Math.ceil((state.nextCheckAt - now) / 1000));
  return (
    <span data-testid="health-countdown">
      in {seconds} s <span className="muted">({clockTime(state.nextCheckAt)})</span>
    </span>
  );
}

function IntervalPicker({ state }: { state: HealthMonitorState }) {
  const configure = useConfigureHealth();
  const options = INTERVALS.includes(state.intervalMs)
    ? INTERVALS
    : [...INTERVALS, state.intervalMs].sort((a, b) => a - b);
  return (
    <>
      <select
        aria-label="Check every"
        value={state.intervalMs}
        onChange={(event) => configure.mutate(Number(event.target.value))}
      >
        {options
          .filter((ms) => ms >= MIN_HEALTH_INTERVAL_MS)
          .map((ms) => (
            <option key={ms} value={ms}>
              {intervalWords(ms)}
              {ms === SUGGESTED_INTERVAL ? ' (suggested)' : ''}
            </option>
          ))}
      </select>
      {configure.error ? (
        <ErrorMessage error={configure.error} title="The interval was not changed." />
      ) : null}
    </>
  );
}

export function FactsCard({ state, saved }: { state: HealthMonitorState; saved: boolean }) {
  const report = state.lastReport;
  const last = state.last;
  const startedAt = report ? Date.parse(report.timestamp) - report.uptime_seconds * 1000 : undefined;
  return (
    <section className="card health-facts" aria-labelledby="health-facts-title">
      <h2 id="health-facts-title">Service</h2>
      <dl className="facts">
        <dt>Uptime</dt>
        <dd data-testid="health-uptime">
          {report ? (
            <>
              {duration(report.uptime_seconds * 1000)}{' '}
              <span className="muted">(up since {dateTime(startedAt as number)})</span>
            </>
          ) : (
            '—'
          )}
        </dd>
        <dt>Version</dt>
        <dd data-testid="health-version">{report?.version ?? '—'}</dd>
        <dt>Last check</dt>
        <dd>
          {last ? (
            <>
              {clockTime(last.at)}
              {last.responseMs !== undefined ? (
                <span className="muted"> · {Math.round(last.responseMs)} ms</span>
              ) : null}
              {last.manual ? <span className="muted"> · by hand</span> : null}
            </>
          ) : (
            'not yet'
          )}
        </dd>
        <dt>Next check</dt>
        <dd>
          <NextCheck state={state} />
        </dd>
        <dt>Check every</dt>
        <dd>
          {saved ? (
            <span>
              {intervalWords(state.intervalMs)}{' '}
              <span className="muted">(edit the monitor on the Overview)</span>
            </span>
          ) : (
            <IntervalPicker state={state} />
          )}
        </dd>
      </dl>
      <p className="muted health-facts-note">
        Checks run in the console’s core, also while this window is hidden, and wait their turn in the key’s
        rate limit like every other request.
      </p>
    </section>
  );
}
