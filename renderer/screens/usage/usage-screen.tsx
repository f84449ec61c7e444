// Usage: requests, tokens and latency over a period of 1–90 days, and who used them (GET /usage).
// Every chart has its table and the data exports as CSV. The latency chart carries the incidents
// this console's health monitor saw, so a slow day can be matched to an outage. The charts (and
// recharts) load on demand, after the numbers.
import { lazy, Suspense, useState } from 'react';
import { ChartCard, ChartLoading } from '../../components/chart-card';
import { downloadText } from '../../components/download';
import { ErrorMessage } from '../../components/error-message';
import { useHealthIncidents } from '../../data/health';
import { useProfiles } from '../../data/profiles';
import { useUsage } from '../../data/usage';
import { PeriodPicker } from './usage-period';
import { UsageTotals } from './usage-totals';
import {
  agentsCsv,
  agentsTable,
  csvName,
  dailyCsv,
  DEFAULT_DAYS,
  latencyTable,
  requestsTable,
  tokensTable,
  type Usage,
} from './usage-data';
import './usage.css';
import { ScreenHeading } from '../../shell/screen-heading';

// Named exports only: React.lazy wants a default, so each is mapped to one here.
const DailyBarsChart = lazy(() => import('./usage-charts').then((m) => ({ default: m.DailyBarsChart })));
const LatencyChart = lazy(() => import('./usage-charts').then((m) => ({ default: m.LatencyChart })));
const AgentsChart = lazy(() => import('./usage-charts').then((m) => ({ default: m.AgentsChart })));

function Charts({ usage, profileId }: { usage: Usage; profileId: string | undefined }) {
  // The monitor's incidents over the report's period (it remembers 7 days; older days have none).
  const incidents = useHealthIncidents(profileId, {
    start: usage.period_start,
    end: usage.period_end,
    days: usage.daily.length,
  });
  const shown = incidents.data ?? [];
  const fallback = <ChartLoading height={220} />;
  return (
    <div className="usage-grid">
      <ChartCard
        title="Requests per day"
        chart={
          <Suspense fallback={fallback}>
            <DailyBarsChart usage={usage} metric="requests" />
          </Suspense>
        }
        table={requestsTable(usage)}
      />
      <ChartCard
        title="Tokens per day"
        chart={
          <Suspense fallback={fallback}>
            <DailyBarsChart usage={usage} metric="tokens" />
          </Suspense>
        }
        table={tokensTable(usage)}
      />
      <ChartCard
        title="Average latency (ms)"
        className="usage-wide"
        note={
          shown.length > 0
            ? `Shaded: ${shown.length} health incident${shown.length > 1 ? 's' : ''} seen by this console’s monitor (amber degraded, red unhealthy or unreachable).`
            : 'No health incidents seen by this console’s monitor in this period (it keeps the last 7 days).'
        }
        chart={
          <Suspense fallback={fallback}>
            <LatencyChart usage={usage} incidents={shown} />
          </Suspense>
        }
        table={latencyTable(usage, shown)}
      />
      <ChartCard
        title="By agent"
        className="usage-wide"
        chart={
          usage.by_agent.length === 0 ? (
            <p className="empty">No agent was used in this period.</p>
          ) : (
            <Suspense fallback={fallback}>
              <AgentsChart usage={usage} />
            </Suspense>
          )
        }
        table={agentsTable(usage)}
      />
    </div>
  );
}

export function UsageScreen() {
  const profiles = useProfiles();
  const profileId = profiles.data?.find((p) => p.active)?.id;
  const [days, setDays] = useState(DEFAULT_DAYS);
  const report = useUsage(profileId, days);
  const usage = report.data?.usage;
  return (
    <section
      className="screen usage-screen"
      data-state={report.isFetching ? 'loading' : usage ? 'ready' : 'empty'}
    >
      <div className="screen-head">
        <ScreenHeading>Usage</ScreenHeading>
        <div className="actions">
          <button
            type="button"
            className="secondary"
            disabled={!usage}
            onClick={() => usage && downloadText(csvName('daily', usage), dailyCsv(usage), 'text/csv')}
          >
            Export daily CSV
          </button>
          <button
            type="button"
            className="secondary"
            disabled={!usage}
            onClick={() => usage && downloadText(csvName('by-agent', usage), agentsCsv(usage), 'text/csv')}
          >
            Export agents CSV
          </button>
          <button
            type="button"
            className="secondary"
            disabled={report.isFetching}
            onClick={() => void report.refetch()}
          >
            {report.isFetching ? 'Loading…' : 'Refresh'}
          </button>
        </div>
      </div>
      <PeriodPicker days={days} onChange={setDays} />
      {profileId === undefined ? <p className="note">Choose a profile to see its usage.</p> : null}
      {report.isError ? <ErrorMessage error={report.error} title="Usage could not be loaded." /> : null}
      {report.isPending && profileId !== undefined ? (
        <p className="note" role="status">
          Loading usage…
        </p>
      ) : null}
      {usage ? (
        <div className={report.isPlaceholderData ? 'usage-body usage-stale' : 'usage-body'}>
          <UsageTotals usage={usage} />
          <Charts usage={usage} profileId={profileId} />
        </div>
      ) : null}
    </section>
  );
}
