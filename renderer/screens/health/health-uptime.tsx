// Uptime over the last hour, day and week, from this console's own checks. Degraded counts as up
// (the spec calls it functional); time with no checks — console closed, key rejected — is left
// out rather than guessed, and the card says how much of each window is known.
import type { UptimeFigure } from '../../../shared/health';
import { duration, RANGE_WORDS } from './health-format';

function percent(figure: UptimeFigure): string {
  if (figure.percent === null) return '—';
  return `${figure.percent >= 99.995 ? '100' : figure.percent.toFixed(2)}%`;
}

export function UptimeCard({ uptime }: { uptime: UptimeFigure[] | undefined }) {
  return (
    <section className="card" aria-labelledby="health-uptime-title">
      <h2 id="health-uptime-title">Uptime seen by this console</h2>
      <dl className="health-uptime">
        {(uptime ?? []).map((figure) => (
          <div key={figure.range} className="health-uptime-figure" data-testid={`uptime-${figure.range}`}>
            <dt>Last {RANGE_WORDS[figure.range]}</dt>
            <dd>
              <strong>{percent(figure)}</strong>
              <span className="muted">
                {figure.percent === null
                  ? 'nothing known of the service'
                  : figure.coveredMs >= figure.windowMs * 0.99
                    ? 'the whole window checked'
                    : figure.coveredMs < 1000
                      ? 'checked for under a second'
                      : `checked for ${duration(figure.coveredMs)}`}
              </span>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
