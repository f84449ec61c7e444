// Compare: each message goes to every ticked agent at once, and their replies stream side by side,
// each with its own timing, so pace and first-chunk times can be read across agents.
import { memo, useRef, useState } from 'react';
import { AgentReply } from './agent-reply';
import { clearCompare } from './composer-actions';
import { usePlayground, type CompareRound } from './playground-store';
import { useStickToBottom } from './stick-to-bottom';

const Column = memo(function Column({ id }: { id: string }) {
  const reply = usePlayground((s) => s.turns[id]);
  return reply?.role === 'agent' ? <AgentReply reply={reply} compact /> : null;
});

/**
 * A column is never narrower than this; more agents than fit go on to another row (never sideways
 * scrolling, whose scrollbar some systems show only while scrolling).
 */
const MIN_COLUMN_PX = 240;

const Round = memo(function Round({ round }: { round: CompareRound }) {
  // One reply read whole, at the full width, with the others a click away.
  const [whole, setWhole] = useState<string>();
  const shown = whole && round.replyIds.includes(whole) ? [whole] : round.replyIds;
  return (
    <li className="pg-round" aria-label="Comparison">
      <article className="pg-user" aria-label="Your message">
        <div className="pg-user-text">{round.message}</div>
      </article>
      <div
        className="pg-columns"
        style={{ gridTemplateColumns: `repeat(auto-fit, minmax(min(100%, ${MIN_COLUMN_PX}px), 1fr))` }}
      >
        {shown.map((id) => (
          <div key={id} className="pg-column">
            <div className="pg-column-head">
              {whole ? (
                <button type="button" className="link" onClick={() => setWhole(undefined)}>
                  Back to side by side
                </button>
              ) : round.replyIds.length > 1 ? (
                <button type="button" className="link" onClick={() => setWhole(id)}>
                  Read whole
                </button>
              ) : null}
            </div>
            <Column id={id} />
          </div>
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
            not part of a session; the last 20 are kept here and come back after a reload.
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
