// The replay of a known history against another agent: pick the agent, run, and read each user
// message with its original reply and the new one side by side.
import type { Transcript } from '../../shared/transcript';
import { closeReplay, runReplay, stopReplay, useReplay, type ReplayRow } from '../stores/replay';
import { useAllAgents } from '../data/agents';
import { ErrorMessage } from '../components/error-message';
import { replaySteps } from '../components/replay-plan';

function Cell({ row }: { row: ReplayRow }) {
  switch (row.state) {
    case 'waiting':
      return <span className="muted">Waiting</span>;
    case 'skipped':
      return <span className="muted">Not sent</span>;
    case 'sending':
      return (
        <span className="muted" role="status">
          <span className="spinner" aria-hidden="true" /> Sending…
        </span>
      );
    case 'failed':
      return <ErrorMessage error={row.error} />;
    case 'done':
      return <div className="message-text">{row.reply}</div>;
  }
}

export function ReplayPanel({ transcript }: { transcript: Transcript }) {
  const replay = useReplay();
  const agents = useAllAgents();
  const steps = replaySteps(transcript);
  const original = replay.source?.agent || transcript.agent;
  const deployed = (agents.data ?? []).filter((a) => a.status === 'deployed');
  // Another agent by default: comparing an agent with itself is possible, but rarely the question.
  const target =
    replay.target && deployed.some((a) => a.slug === replay.target)
      ? replay.target
      : (deployed.find((a) => a.slug !== original)?.slug ?? deployed[0]?.slug ?? '');
  const ran = replay.rows.length > 0;
  const shown: ReplayRow[] = ran ? replay.rows : steps.map((s) => ({ ...s, state: 'waiting' }));
  const done = replay.rows.filter((r) => r.state === 'done').length;
  return (
    <section className="card replay" aria-label="Replay">
      <div className="replay-head">
        <h2>Replay against another agent</h2>
        <button type="button" className="secondary" onClick={closeReplay}>
          Close
        </button>
      </div>
      <p className="muted">
        Sends the {steps.length} user message{steps.length === 1 ? '' : 's'} known here again, one at a time,
        in a new session, and sets each reply beside the original from <code>{original}</code>.
      </p>
      <div className="actions">
        <label className="inline-field">
          <span>Agent</span>
          <select
            aria-label="Replay agent"
            value={target}
            disabled={replay.running}
            onChange={(event) => useReplay.setState({ target: event.target.value })}
          >
            {(agents.data ?? []).map((a) => (
              <option key={a.agent_id} value={a.slug} disabled={a.status !== 'deployed'}>
                {a.name} ({a.slug}){a.status !== 'deployed' ? ` — ${a.status}` : ''}
              </option>
            ))}
          </select>
        </label>
        {replay.running ? (
          <button type="button" className="secondary" onClick={stopReplay} disabled={replay.stopRequested}>
            {replay.stopRequested ? 'Stopping…' : 'Stop'}
          </button>
        ) : (
          <button
            type="button"
            disabled={!target || steps.length === 0}
            onClick={() => void runReplay(steps, target)}
          >
            {ran ? 'Run again' : 'Run replay'}
          </button>
        )}
        {ran ? (
          <span className="muted" role="status" data-testid="replay-progress">
            {done} of {replay.rows.length} replayed
            {replay.sessionId ? (
              <>
                {' '}
                · session <code>{replay.sessionId}</code>
              </>
            ) : null}
          </span>
        ) : null}
      </div>
      {agents.error ? <ErrorMessage error={agents.error} title="The agents could not be loaded." /> : null}
      {steps.length === 0 ? (
        <p className="note">No user messages are known here, so there is nothing to replay.</p>
      ) : (
        <table className="table replay-table" aria-label="Replay comparison">
          <colgroup>
            <col style={{ width: '26%' }} />
            <col style={{ width: '37%' }} />
            <col style={{ width: '37%' }} />
          </colgroup>
          <thead>
            <tr>
              <th scope="col">Message</th>
              <th scope="col">Original · {original}</th>
              <th scope="col">Replay · {ran ? replay.ranAgainst : target}</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((row, i) => (
              <tr key={i}>
                <td>
                  <div className="message-text">{row.user}</div>
                </td>
                <td>
                  {row.original ? (
                    <div className="message-text">
                      {row.original.content || <span className="muted">(no text)</span>}
                      {row.original.status !== 'complete' ? (
                        <span className={`badge badge-${row.original.status}`}>{row.original.status}</span>
                      ) : null}
                    </div>
                  ) : (
                    <span className="muted">No reply recorded</span>
                  )}
                </td>
                <td>{ran ? <Cell row={row} /> : <span className="muted">Not run yet</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
