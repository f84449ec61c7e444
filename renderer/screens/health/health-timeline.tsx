// The timeline: status and response time over 1 h, 24 h or 7 d (the chart loads on demand), its
// table, and the events on it — confirmed status changes, restarts and deploys — as a list.
import { lazy, Suspense, useState } from 'react';
import {
  HEALTH_RANGES,
  STATUS_WORDS,
  type HealthMark,
  type HealthRange,
  type HealthTimeline,
} from '../../../shared/health';
import { ChartCard, ChartLoading, type TableData } from '../../components/chart-card';
import { ErrorMessage } from '../../components/error-message';
import { WATCH_WORDS } from '../../../shared/monitor';
import { dateTime, RANGE_WORDS } from './health-format';
import { useHealthTimeline } from '../../data/health';
import { useIncidents } from '../../data/monitors';
import type { IncidentSpan } from './health-timeline-chart';

// Named exports only: React.lazy wants a default, so it is mapped here.
const TimelineChart = lazy(() =>
  import('./health-timeline-chart').then((m) => ({ default: m.HealthTimelineChart })),
);

function tableOf(timeline: HealthTimeline | undefined, range: HealthRange): TableData {
  const bucketed = timeline !== undefined && timeline.points.some((p) => p.samples > 1);
  return {
    caption: `Checks over the last ${RANGE_WORDS[range]}${bucketed ? ' (grouped: worst status and mean response time per group)' : ''}`,
    columns: ['Time', 'Status', 'Response time (ms)', 'Checks'],
    rows: (timeline?.points ?? []).map((p) => [
      dateTime(p.at),
      STATUS_WORDS[p.status],
      p.responseMs !== undefined ? Math.round(p.responseMs) : '—',
      p.samples,
    ]),
  };
}

function Events({ marks }: { marks: HealthMark[] }) {
  if (marks.length === 0)
    return <p className="muted">No status changes, restarts or deploys in this period.</p>;
  return (
    <ol className="health-events" aria-label="Events" data-testid="health-events">
      {[...marks].reverse().map((mark, i) => (
        <li
          key={`${mark.at}-${mark.kind}-${i}`}
          className={`health-event health-event-${mark.kind} ${mark.to ? `health-event-${mark.to}` : ''}`}
        >
          <time dateTime={new Date(mark.at).toISOString()}>{dateTime(mark.at)}</time>
          <span>{mark.label}</span>
        </li>
      ))}
    </ol>
  );
}

export function TimelineSection({
  intervalMs,
  monitorId,
}: {
  intervalMs: number;
  monitorId?: string | undefined;
}) {
  const [range, setRange] = useState<HealthRange>('1h');
  const timeline = useHealthTimeline(range, monitorId);
  const data = timeline.data;
  const incidents = useIncidents(monitorId);
  // Only a saved monitor has incidents; the active profile's own poll has none.
  const spans: IncidentSpan[] =
    monitorId === undefined || !data
      ? []
      : (incidents.data ?? [])
          .filter((i) => i.startedAt < data.to && (i.resolved?.at ?? data.to) > data.from)
          .map((i) => ({
            id: i.id,
            from: i.startedAt,
            to: i.resolved?.at ?? data.to,
            label: `Incident: ${WATCH_WORDS[i.status]}${i.resolved ? '' : ' (open)'}`,
          }));
  return (
    <>
      <div className="health-ranges" role="group" aria-label="Timeline period">
        {(Object.keys(HEALTH_RANGES) as HealthRange[]).map((r) => (
          <button
            key={r}
            type="button"
            className={r === range ? '' : 'secondary'}
            aria-pressed={r === range}
            onClick={() => setRange(r)}
          >
            {RANGE_WORDS[r]}
          </button>
        ))}
      </div>
      {timeline.isError ? (
        <ErrorMessage error={timeline.error} title="The history could not be loaded." />
      ) : null}
      <ChartCard
        title="Timeline"
        note="Top band: status of each check. Line: response time. Shaded spans: incidents, from when each opened to its resolution. Vertical lines: status changes (solid), restarts (dashed), deploys (dotted), unconfirmed flips (sparse dots)."
        chart={
          !data ? (
            <ChartLoading height={260} />
          ) : data.points.length === 0 ? (
            <p className="empty">No checks in the last {RANGE_WORDS[range]} yet.</p>
          ) : (
            <Suspense fallback={<ChartLoading height={260} />}>
              <TimelineChart timeline={data} intervalMs={intervalMs} incidents={spans} />
            </Suspense>
          )
        }
        table={tableOf(data, range)}
      />
      <section className="card" aria-labelledby="health-events-title">
        <h2 id="health-events-title">Events in the last {RANGE_WORDS[range]}</h2>
        <Events marks={data?.marks ?? []} />
      </section>
    </>
  );
}
