// The open session's messages. The list re-renders only when a message is added or changes state;
// each message is memoised, and off-screen ones skip layout (content-visibility), so a long
// transcript stays fast while the newest reply streams. It keeps itself scrolled to the bottom
// unless the user has scrolled up to read.
import { memo, useRef } from 'react';
import { clockTime } from '../../components/clock-time';
import { AgentReply } from './agent-reply';
import { editMessage } from './composer-actions';
import { usePlayground, type UserTurn } from './playground-store';
import { useStickToBottom } from './stick-to-bottom';

const UserMessage = memo(function UserMessage({ turn }: { turn: UserTurn }) {
  const failed = usePlayground((s) => {
    const reply = turn.replyId ? s.turns[turn.replyId] : undefined;
    return (
      reply?.role === 'agent' &&
      (reply.status === 'failed' || (reply.status === 'stopped' && reply.neverSent === true))
    );
  });
  return (
    <article className="pg-user" aria-label="Your message">
      <div className="pg-user-text">{turn.text}</div>
      <footer className="pg-user-foot">
        <time dateTime={new Date(turn.at).toISOString()}>{clockTime(turn.at)}</time>
        {failed ? (
          <button type="button" className="link" onClick={() => editMessage(turn.text)}>
            Edit in the box
          </button>
        ) : null}
      </footer>
    </article>
  );
});

const TurnView = memo(function TurnView({ id }: { id: string }) {
  const turn = usePlayground((s) => s.turns[id]);
  if (!turn) return null;
  return (
    <li className="pg-turn">
      {turn.role === 'user' ? <UserMessage turn={turn} /> : <AgentReply reply={turn} />}
    </li>
  );
});

export function Transcript() {
  const ids = usePlayground((s) => s.ids);
  const session = usePlayground((s) => s.session);
  const ref = useRef<HTMLDivElement>(null);
  useStickToBottom(ref, [ids]);
  return (
    // Focusable, so a click anywhere in it gives the keyboard's scrolling keys to it (and Tab reaches
    // it), not to whatever the browser last took for the scroller.
    <div className="pg-scroll" ref={ref} tabIndex={0} role="region" aria-label="Transcript">
      {session.loading ? <p className="muted pg-empty">Opening the session…</p> : null}
      {!session.loading && ids.length === 0 ? (
        <div className="pg-empty">
          <p>
            <strong>Send a message to start.</strong>
          </p>
          <p className="muted">
            Replies stream in as they arrive. The inspector beside each one shows the time to the first chunk,
            the pace, and the raw frames.
          </p>
        </div>
      ) : null}
      <ol className="pg-turns" aria-label="Messages">
        {ids.map((id) => (
          <TurnView key={id} id={id} />
        ))}
      </ol>
    </div>
  );
}
