// Comparisons are kept like sessions: each finished round (the message, and every
// agent's reply with its status) is saved in this browser's storage, and comes back after a
// reload, newest 20, each reply up to 256 KB. "Clear comparisons" forgets them.
import { bufferFor } from './stream-buffer';
import { isActive, usePlayground, type CompareRound, type ReplyTurn } from './playground-store';

const KEY = 'agent-console.comparisons';
const KEEP_ROUNDS = 20;
const KEEP_CHARS = 256 * 1024;

interface KeptReply {
  agent?: string | undefined;
  status: ReplyTurn['status'];
  text: string;
}
interface KeptRound {
  id: string;
  message: string;
  at: number;
  replies: KeptReply[];
}

function restore(): void {
  let kept: KeptRound[];
  try {
    kept = JSON.parse(localStorage.getItem(KEY) ?? '[]') as KeptRound[];
  } catch {
    return;
  }
  if (!Array.isArray(kept) || kept.length === 0) return;
  const turns: Record<string, ReplyTurn> = {};
  const rounds: CompareRound[] = kept.map((round) => {
    const replyIds = round.replies.map((reply, i) => {
      const id = `${round.id}-${i}`;
      turns[id] = {
        role: 'agent',
        id,
        request: { message: round.message, agent: reply.agent, stream: true },
        status: reply.status,
        fromHistory: true,
        attempts: 1,
      };
      bufferFor(id).setText(reply.text);
      return id;
    });
    return { id: round.id, message: round.message, at: round.at, replyIds };
  });
  usePlayground.setState((s) => ({ rounds: [...rounds, ...s.rounds], turns: { ...s.turns, ...turns } }));
}

function save(rounds: CompareRound[]): void {
  const state = usePlayground.getState();
  const finished = rounds.filter((round) =>
    round.replyIds.every((id) => {
      const turn = state.turns[id];
      return turn?.role === 'agent' && !isActive(turn.status);
    }),
  );
  const kept: KeptRound[] = finished.slice(-KEEP_ROUNDS).map((round) => ({
    id: round.id,
    message: round.message,
    at: round.at,
    replies: round.replyIds.map((id) => {
      const turn = state.turns[id] as ReplyTurn;
      return {
        agent: turn.request.agent,
        status: turn.status,
        text: bufferFor(id).text().slice(0, KEEP_CHARS),
      };
    }),
  }));
  try {
    localStorage.setItem(KEY, JSON.stringify(kept));
  } catch {
    // Storage full or refused: the comparisons stay on screen, only not kept across a reload.
  }
}

restore();
let timer: ReturnType<typeof setTimeout> | undefined;
usePlayground.subscribe((state, previous) => {
  if (state.rounds === previous.rounds && state.turns === previous.turns) return;
  clearTimeout(timer);
  timer = setTimeout(() => save(usePlayground.getState().rounds), 250);
});
