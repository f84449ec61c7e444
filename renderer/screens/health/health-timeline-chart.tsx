// The timeline chart, loaded on demand with recharts (health-timeline.tsx): a band of status
// colours over a line of response times, on one time axis, with the events as vertical lines and
// the monitor's incidents as shaded spans, from when each opened to its resolution (or now).
import {
  CartesianGrid,
  Line,
  LineChart,
  ReferenceArea,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import {
  STATUS_WORDS,
  type HealthMark,
  type HealthTimeline,
  type HealthTimelinePoint,
  type MonitorStatus,
} from '../../../shared/health';
import { useChartTheme, type ChartTheme } from '../../components/chart-theme';
import { dateTime, tickTime } from './health-format';

/** An incident as the chart draws it: a span and what it says. */
export interface IncidentSpan {
  id: string;
  from: number;
  to: number;
  label: string;
}

const MARGIN = { top: 4, right: 12, bottom: 0, left: 0 };
const Y_WIDTH = 56;

function statusColour(status: MonitorStatus, theme: ChartTheme): string {
  switch (status) {
    case 'healthy':
      return theme.ok;
    case 'degraded':
      return theme.warn;
    case 'unhealthy':
    case 'unreachable':
      return theme.bad;
    case 'key-rejected':
      return theme.muted;
    default:
      return theme.grid;
  }
}

interface Run {
  status: MonitorStatus;
  from: number;
  to: number;
}

/**
 * Consecutive points of one status become one band. A point speaks for its bucket, or one and a
 * half intervals when checks are sparser than buckets; past that the band stops (nothing known).
 */
function runsOf(points: HealthTimelinePoint[], span: number, end: number, minWidth: number): Run[] {
  const runs: Run[] = [];
  points.forEach((p, i) => {
    const to = Math.min(points[i + 1]?.at ?? end, p.at + span, end);
    const last = runs.at(-1);
    if (last && last.status === p.status && last.to >= p.at) last.to = to;
    else runs.push({ status: p.status, from: p.at, to });
  });
  // A run of a few seconds on an hour's axis would be invisible: widen it backwards (so the
  // newest stays at "now"), drawn in order so a later run paints over the one it overlaps.
  for (const run of runs) if (run.to - run.from < minWidth) run.from = run.to - minWidth;
  return runs;
}

function markStyle(mark: HealthMark, theme: ChartTheme) {
  if (mark.kind === 'restart') return { stroke: theme.series3, strokeDasharray: '5 3' };
  if (mark.kind === 'deploy') return { stroke: theme.series2, strokeDasharray: '2 2' };
  if (mark.kind === 'flip')
    return { stroke: statusColour(mark.to ?? 'unknown', theme), strokeDasharray: '1 3' };
  return { stroke: statusColour(mark.to ?? 'unknown', theme), strokeDasharray: undefined };
}

export function HealthTimelineChart({
  timeline,
  intervalMs,
  incidents = [],
}: {
  timeline: HealthTimeline;
  intervalMs: number;
  incidents?: IncidentSpan[];
}) {
  const theme = useChartTheme();
  // A young history (the monitor started minutes ago) is drawn over its own span, not squeezed
  // against the right edge of the hour or the week.
  const first = timeline.points[0]?.at ?? timeline.from;
  const from = Math.max(timeline.from, first - Math.max(5_000, (timeline.to - first) * 0.05));
  const domain: [number, number] = [from, timeline.to];
  const span = Math.max(timeline.bucketMs, intervalMs * 1.5);
  const runs = runsOf(timeline.points, span, timeline.to, (timeline.to - from) / 240);
  const ticks = Array.from({ length: 7 }, (_, i) => Math.round(from + ((timeline.to - from) * i) / 6));
  return (
    <div className="health-chart">
      {/* The status band: plain SVG over the line chart's plot area (same left and right insets). */}
      <svg
        className="health-band"
        viewBox="0 0 1000 10"
        preserveAspectRatio="none"
        style={{
          marginLeft: Y_WIDTH + MARGIN.left,
          width: `calc(100% - ${Y_WIDTH + MARGIN.left + MARGIN.right}px)`,
        }}
      >
        {runs.map((run) => {
          const x = ((Math.max(run.from, from) - from) / (timeline.to - from)) * 1000;
          const width =
            ((Math.min(run.to, timeline.to) - Math.max(run.from, from)) / (timeline.to - from)) * 1000;
          return (
            <rect
              key={`${run.from}-${run.status}`}
              x={x}
              width={Math.max(width, 0)}
              y={0}
              height={10}
              fill={statusColour(run.status, theme)}
            >
              <title>{`${STATUS_WORDS[run.status]}: ${dateTime(run.from)} – ${dateTime(run.to)}`}</title>
            </rect>
          );
        })}
      </svg>
      <ResponsiveContainer width="100%" height={220}>
        <LineChart accessibilityLayer={false} data={timeline.points} margin={MARGIN}>
          <CartesianGrid stroke={theme.grid} vertical={false} />
          <XAxis
            dataKey="at"
            type="number"
            domain={domain}
            ticks={ticks}
            allowDataOverflow
            tickFormatter={(at: number) => tickTime(at, timeline.to - from)}
            tick={{ fill: theme.text, fontSize: 12 }}
            stroke={theme.grid}
          />
          <YAxis
            width={Y_WIDTH}
            tick={{ fill: theme.text, fontSize: 12 }}
            stroke={theme.grid}
            tickFormatter={(ms: number) => `${Math.round(ms)} ms`}
          />
          <Tooltip
            labelFormatter={(at) => dateTime(Number(at))}
            formatter={(value, _name, item) => {
              const point = item.payload as HealthTimelinePoint;
              const ms =
                value === undefined || value === null ? 'no answer' : `${Math.round(Number(value))} ms`;
              return [
                `${ms} · ${STATUS_WORDS[point.status]}${point.samples > 1 ? ` (${point.samples} checks)` : ''}`,
                'Response',
              ];
            }}
          />
          {incidents.map((incident) => (
            <ReferenceArea
              key={incident.id}
              className="health-incident-span"
              x1={Math.max(incident.from, from)}
              x2={Math.min(incident.to, timeline.to)}
              ifOverflow="hidden"
              fill={theme.bad}
              fillOpacity={0.14}
              stroke={theme.bad}
              strokeOpacity={0.5}
              label={{ value: incident.label, position: 'insideTopLeft', fill: theme.bad, fontSize: 12 }}
            />
          ))}
          {timeline.marks.map((mark, i) => (
            <ReferenceLine
              key={`${mark.at}-${mark.kind}-${i}`}
              x={mark.at}
              strokeWidth={1.5}
              ifOverflow="hidden"
              {...markStyle(mark, theme)}
            />
          ))}
          <Line
            dataKey="responseMs"
            name="Response time"
            stroke={theme.series1}
            strokeWidth={1.5}
            dot={timeline.points.length <= 90 ? { r: 2.5 } : false}
            connectNulls={false}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
