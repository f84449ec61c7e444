// A saved monitor's synthetic checks on the Health screen, so that "Details" from the Overview tells
// the same story as the row it came from: a service whose health poll says healthy while an agent
// fails its check is "Synthetic check failing" here too, with the checks that failed and why.
import { WATCH_WORDS, type MonitorView } from '../../../shared/monitor';
import { ms } from '../overview/overview-format';
import { clockTime } from './health-format';

export function SyntheticCard({ view }: { view: MonitorView }) {
  const synthetic = view.synthetic;
  if (!synthetic) return null;
  const results = synthetic.last ?? [];
  const failed = results.filter((r) => !r.passed);
  return (
    <section
      className={`card health-synthetic${synthetic.failing ? ' health-synthetic-failing' : ''}`}
      aria-labelledby="health-synthetic-title"
    >
      <h2 id="health-synthetic-title">
        Synthetic checks<span className="muted"> · {view.name}</span>
      </h2>
      <p data-testid="monitor-status" data-status={view.status}>
        <strong>{WATCH_WORDS[view.status]}</strong>
        {view.status === 'synthetic-failing'
          ? ': the service answers its health checks, but an agent does not answer as its check expects.'
          : synthetic.failing
            ? '.'
            : ` — the checks pass (${synthetic.passed24h.passed} of ${synthetic.passed24h.runs} in the last 24 h).`}
      </p>
      {results.length === 0 ? (
        <p className="muted">Not run yet.</p>
      ) : (
        <>
          <p className="muted">
            Last run at {clockTime(synthetic.lastAt ?? (results[0]?.at as number))}:{' '}
            {results.length - failed.length} of {results.length} passed.
          </p>
          <table className="table" aria-label="Last synthetic checks">
            <thead>
              <tr>
                <th scope="col">Check</th>
                <th scope="col">Agent</th>
                <th scope="col">Result</th>
                <th scope="col">First chunk</th>
              </tr>
            </thead>
            <tbody>
              {results.map((r, i) => (
                <tr key={`${r.check}-${r.agent}-${i}`}>
                  <td>{r.check}</td>
                  <td>{r.agent}</td>
                  <td className={r.passed ? 'health-check-passed' : 'health-check-failed'}>
                    {r.passed ? 'Passed' : `Failed: ${r.failure ?? 'no reason given'}`}
                  </td>
                  <td>{ms(r.ttftMs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
