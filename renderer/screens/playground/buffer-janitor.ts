// Frees what a closed reply holds: once a reply is neither in the open session nor in a
// compare round, and no longer on its way, its turn and its stream buffer (every chunk, with their
// timings) are let go. A reply still streaming for a session that was closed keeps its buffer until
// it ends; then it goes too. Without this every reply's text lived as long as the page.
import { dropBuffer } from './stream-buffer';
import { isActive, usePlayground, type PlaygroundState, type Turn } from './playground-store';

/** Turns nothing on screen shows and nothing in flight still needs. */
function closedTurns(state: Pick<PlaygroundState, 'ids' | 'rounds' | 'turns'>): Turn[] {
  const kept = new Set(state.ids);
  for (const round of state.rounds) for (const id of round.replyIds) kept.add(id);
  const busy = (id: string | undefined): boolean => {
    const turn = id === undefined ? undefined : state.turns[id];
    return turn?.role === 'agent' && isActive(turn.status);
  };
  return Object.values(state.turns).filter(
    (turn) => !kept.has(turn.id) && !busy(turn.role === 'agent' ? turn.id : turn.replyId),
  );
}

function freeClosed(): void {
  const gone = closedTurns(usePlayground.getState());
  if (gone.length === 0) return;
  for (const turn of gone) if (turn.role === 'agent') dropBuffer(turn.id);
  usePlayground.setState((s) => {
    const turns = { ...s.turns };
    for (const turn of gone) delete turns[turn.id];
    return { turns };
  });
}

let pending = false;
usePlayground.subscribe((state, previous) => {
  if (state.ids === previous.ids && state.rounds === previous.rounds && state.turns === previous.turns)
    return;
  if (pending) return;
  pending = true;
  // After the change that closed them has finished (a session switch sets several fields).
  queueMicrotask(() => {
    pending = false;
    freeClosed();
  });
});
