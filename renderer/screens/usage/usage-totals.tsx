// The period's totals in words and numbers, above the charts.
import { numberFormat, shortDate, summarise, type Usage } from './usage-data';

export function UsageTotals({ usage }: { usage: Usage }) {
  const s = summarise(usage);
  const first = usage.daily[0]?.date;
  const last = usage.daily.at(-1)?.date;
  return (
    <>
      <p className="usage-period-text">
        {usage.daily.length} day{usage.daily.length === 1 ? '' : 's'}
        {first && last ? `: ${shortDate(first)} – ${shortDate(last)} (UTC)` : ''}
        {s.totalRequests === 0 ? ' · no requests in this period' : ''}
      </p>
      <dl className="usage-totals" aria-label="Totals">
        <div className="card">
          <dt>Requests</dt>
          <dd data-testid="usage-total-requests">{numberFormat.format(s.totalRequests)}</dd>
        </div>
        <div className="card">
          <dt>Tokens</dt>
          <dd data-testid="usage-total-tokens">{numberFormat.format(s.totalTokens)}</dd>
        </div>
        <div className="card">
          <dt>Average latency</dt>
          <dd>{s.avgLatencyMs === null ? '—' : `${numberFormat.format(s.avgLatencyMs)} ms`}</dd>
        </div>
        <div className="card">
          <dt>Busiest day</dt>
          <dd>
            {s.busiest ? (
              <>
                {shortDate(s.busiest.date)}{' '}
                <span className="muted">· {numberFormat.format(s.busiest.requests)}</span>
              </>
            ) : (
              '—'
            )}
          </dd>
        </div>
      </dl>
    </>
  );
}
