// A monitor's response times as a sparkline (recharts, loaded with the Overview's chart chunk).
import { Line, LineChart, YAxis } from 'recharts';

export function Sparkline({ values, label }: { values: number[]; label: string }) {
  if (values.length < 2) return <span className="muted">—</span>;
  const data = values.map((ms, i) => ({ i, ms }));
  return (
    <span role="img" aria-label={label} title={label} className="overview-spark">
      <LineChart width={120} height={28} data={data} margin={{ top: 2, right: 2, bottom: 2, left: 2 }}>
        <YAxis hide domain={[0, 'dataMax']} />
        <Line
          type="monotone"
          dataKey="ms"
          stroke="var(--accent)"
          strokeWidth={1.5}
          dot={false}
          isAnimationActive={false}
        />
      </LineChart>
    </span>
  );
}
