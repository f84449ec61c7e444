// The Usage screen's charts. This module (and recharts with it) is loaded on demand by
// usage-screen.tsx through React.lazy, so the first screen does not pay for the chart library.
import {
  Bar,
  BarChart,
  CartesianGrid,
  Line,
  LineChart,
  ReferenceArea,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { HealthIncident } from '../../../shared/health';
import { STATUS_WORDS } from '../../../shared/health';
import { useChartTheme } from '../../components/chart-theme';
import { compactFormat, DAY_MS, numberFormat, shortDate, type Usage } from './usage-data';

const HEIGHT = 220;
const axisTick = (fill: string) => ({ fill, fontSize: 12 });

interface DailyBarsProps {
  usage: Usage;
  metric: 'requests' | 'tokens';
}

export function DailyBarsChart({ usage, metric }: DailyBarsProps) {
  const theme = useChartTheme();
  const label = metric === 'requests' ? 'Requests' : 'Tokens';
  return (
    <ResponsiveContainer width="100%" height={HEIGHT}>
      <BarChart
        accessibilityLayer={false}
        data={usage.daily}
        margin={{ top: 8, right: 12, bottom: 0, left: 0 }}
      >
        <CartesianGrid stroke={theme.grid} vertical={false} />
        <XAxis
          dataKey="date"
          tickFormatter={shortDate}
          tick={axisTick(theme.text)}
          stroke={theme.grid}
          interval="preserveStartEnd"
          minTickGap={18}
        />
        <YAxis
          tickFormatter={(v: number) => compactFormat.format(v)}
          tick={axisTick(theme.text)}
          stroke={theme.grid}
          width={52}
          allowDecimals={false}
        />
        <Tooltip
          cursor={{ fill: theme.grid, fillOpacity: 0.5 }}
          labelFormatter={(date) => shortDate(String(date))}
          formatter={(value) => [numberFormat.format(Number(value)), label]}
        />
        <Bar
          dataKey={metric}
          name={label}
          fill={metric === 'requests' ? theme.series1 : theme.series2}
          radius={[2, 2, 0, 0]}
          isAnimationActive={false}
        />
      </BarChart>
    </ResponsiveContainer>
  );
}

const midday = (date: string) => Date.parse(`${date}T12:00:00Z`);

/** Whole-day ticks, thinned to about eight. */
function dayTicks(first: number, days: number): number[] {
  const step = Math.max(1, Math.ceil(days / 8));
  const ticks: number[] = [];
  for (let d = 0; d < days; d += step) ticks.push(first + d * DAY_MS + DAY_MS / 2);
  return ticks;
}

interface LatencyProps {
  usage: Usage;
  incidents: HealthIncident[];
}

/**
 * Average latency per day on a time axis, so the monitor's incidents can be drawn at their real
 * times as bands; a band too short to see at this scale is widened to stay visible.
 */
export function LatencyChart({ usage, incidents }: LatencyProps) {
  const theme = useChartTheme();
  const data = usage.daily.map((d) => ({
    at: midday(d.date),
    date: d.date,
    latency: d.requests > 0 ? d.avg_latency_ms : null,
  }));
  const first = Date.parse(`${usage.daily[0]?.date ?? usage.period_start.slice(0, 10)}T00:00:00Z`);
  const end = first + usage.daily.length * DAY_MS;
  const minWidth = (end - first) / 150;
  return (
    <ResponsiveContainer width="100%" height={HEIGHT}>
      <LineChart accessibilityLayer={false} data={data} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
        <CartesianGrid stroke={theme.grid} vertical={false} />
        {incidents.map((incident) => {
          const x1 = Math.max(first, incident.start);
          const x2 = Math.min(end, Math.max(incident.end, x1 + minWidth));
          return (
            <ReferenceArea
              key={`${incident.start}-${incident.worst}`}
              x1={x1}
              x2={x2}
              fill={incident.worst === 'degraded' ? theme.warn : theme.bad}
              fillOpacity={0.22}
              stroke={incident.worst === 'degraded' ? theme.warn : theme.bad}
              strokeOpacity={0.5}
              ifOverflow="hidden"
              label={{
                value: STATUS_WORDS[incident.worst],
                position: 'insideTop',
                fill: theme.text,
                fontSize: 11,
              }}
            />
          );
        })}
        <XAxis
          dataKey="at"
          type="number"
          domain={[first, end]}
          ticks={dayTicks(first, usage.daily.length)}
          tickFormatter={(at: number) => shortDate(new Date(at).toISOString().slice(0, 10))}
          tick={axisTick(theme.text)}
          stroke={theme.grid}
        />
        <YAxis
          tick={axisTick(theme.text)}
          stroke={theme.grid}
          width={52}
          tickFormatter={(v: number) => compactFormat.format(v)}
        />
        <Tooltip
          labelFormatter={(at) => shortDate(new Date(Number(at)).toISOString().slice(0, 10))}
          formatter={(value) => [
            value === null ? 'no requests' : `${numberFormat.format(Number(value))} ms`,
            'Average latency',
          ]}
        />
        <Line
          dataKey="latency"
          name="Average latency"
          stroke={theme.series3}
          strokeWidth={2}
          dot={usage.daily.length <= 31 ? { r: 2.5 } : false}
          connectNulls={false}
          isAnimationActive={false}
        />
      </LineChart>
    </ResponsiveContainer>
  );
}

export function AgentsChart({ usage }: { usage: Usage }) {
  const theme = useChartTheme();
  const height = Math.max(120, usage.by_agent.length * 34 + 30);
  return (
    <ResponsiveContainer width="100%" height={height}>
      <BarChart
        accessibilityLayer={false}
        data={usage.by_agent}
        layout="vertical"
        margin={{ top: 4, right: 16, bottom: 0, left: 8 }}
      >
        <CartesianGrid stroke={theme.grid} horizontal={false} />
        <XAxis
          type="number"
          tickFormatter={(v: number) => compactFormat.format(v)}
          tick={axisTick(theme.text)}
          stroke={theme.grid}
          allowDecimals={false}
        />
        <YAxis type="category" dataKey="agent" tick={axisTick(theme.text)} stroke={theme.grid} width={110} />
        <Tooltip
          cursor={{ fill: theme.grid, fillOpacity: 0.5 }}
          formatter={(value, _name, item) => {
            const tokens = (item.payload as { tokens?: number } | undefined)?.tokens ?? 0;
            return [
              `${numberFormat.format(Number(value))} requests · ${numberFormat.format(tokens)} tokens`,
              '',
            ];
          }}
        />
        <Bar
          dataKey="requests"
          name="Requests"
          fill={theme.series1}
          radius={[0, 2, 2, 0]}
          isAnimationActive={false}
        />
      </BarChart>
    </ResponsiveContainer>
  );
}
