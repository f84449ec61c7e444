// Compare: each message goes to every ticked agent at once, and their replies stream side by side,
// each with its own timing, so pace and first-chunk times can be read across agents.
import { memo, useRef } from 'react';
import { AgentReply } from './agent-reply';
import { clearCompare } from './playground-actions';
import { usePlayground, type CompareRound } from './playground-store';
import { useStickToBottom } from './transcript';

const Column = memo(function Column({ id }: { id: string }) {
  const reply = usePlayground((s) => s.turns[id]);
  return reply?.role === 'agent' ? <AgentReply reply={reply} compact /> : null;
});

const Round = memo(function Round({ round }: { round: CompareRound }) {
  return (
    <li className="pg-round" aria-label="Comparison">
      <article className="pg-user" aria-label="Your message">
        <div className="pg-user-text">{round.message}</div>
      </article>
      <div
        className="pg-columns"
        style={{ gridTemplateColumns: `repeat(${round.replyIds.length}, minmax(0, 1fr))` }}
      >
        {round.replyIds.map((id) => (
          <Column key={id} id={id} />
        ))}
      </div>
    </li>
  );
});

export function CompareView() {
  const rounds = usePlayground((s) => s.rounds);
  const ref = useRef<HTMLDivElement>(null);
  useStickToBottom(ref, [rounds]);
  return (
    <div className="pg-scroll" ref={ref}>
      {rounds.length === 0 ? (
        <div className="pg-empty">
          <p>
            <strong>Tick two or more agents and send one message to all of them.</strong>
          </p>
          <p className="muted">
            Their replies stream side by side with time to first chunk, total time and pace. Comparisons are
            not part of a session and are not recorded.
          </p>
        </div>
      ) : (
        <div className="pg-compare-head">
          <button type="button" className="secondary small" onClick={() => clearCompare()}>
            Clear comparisons
          </button>
        </div>
      )}
      <ol className="pg-turns" aria-label="Comparisons">
        {rounds.map((round) => (
          <Round key={round.id} round={round} />
        ))}
      </ol>
    </div>
  );
}
