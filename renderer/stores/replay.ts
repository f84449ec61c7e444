// A replay: the user messages of a known conversation or thread sent again, one after another, to
// another agent in a fresh session, each new reply set beside the original. Kept in a store (not a
// component) so it keeps running, and its results stay, while the user looks at other screens.
import { create } from 'zustand';
import type { BridgeError } from '../../shared/bridge';
import type { TranscriptKind, TranscriptMessage } from '../../shared/transcript';
import { asBridgeError } from '../components/error-message';
import { newSessionId, type ReplayStep } from '../components/replay-plan';
import { sendChat } from '../data/chat';

export interface ReplayRow {
  user: string;
  original?: TranscriptMessage | undefined;
  state: 'waiting' | 'sending' | 'done' | 'failed' | 'skipped';
  reply?: string;
  requestId?: string;
  error?: BridgeError;
}

interface ReplayState {
  /** The conversation (`session`) or thread the replay comes from; undefined when none is open. */
  source: { kind: TranscriptKind; id: string; agent: string } | undefined;
  /** The agent picked in the panel. */
  target: string;
  /** The agent the shown results came from (the pick may have changed since). */
  ranAgainst: string;
  sessionId: string | undefined;
  rows: ReplayRow[];
  running: boolean;
  stopRequested: boolean;
}

export const useReplay = create<ReplayState>(() => ({
  source: undefined,
  target: '',
  ranAgainst: '',
  sessionId: undefined,
  rows: [],
  running: false,
  stopRequested: false,
}));

/** Opens the replay panel for a source; a replay of another source that is still running is stopped. */
export function openReplay(source: { kind: TranscriptKind; id: string; agent: string }): void {
  const current = useReplay.getState();
  if (current.source?.kind === source.kind && current.source.id === source.id) return;
  useReplay.setState({ source, rows: [], sessionId: undefined, stopRequested: current.running });
}

export function closeReplay(): void {
  useReplay.setState(({ running }) => ({ source: undefined, rows: [], stopRequested: running }));
}

export function stopReplay(): void {
  useReplay.setState({ stopRequested: true });
}

function patchRow(index: number, patch: Partial<ReplayRow>): void {
  useReplay.setState(({ rows }) => ({ rows: rows.map((r, i) => (i === index ? { ...r, ...patch } : r)) }));
}

/**
 * Sends each step in turn with `chat:send` (no streaming: the replies are compared whole). A fresh
 * session id keeps the replayed messages in one conversation, as they were originally, and lets
 * the core record it as known from the start. Stops at the first failure: the later messages
 * depend on the earlier replies, so going on would compare unlike with unlike.
 */
export async function runReplay(steps: ReplayStep[], target: string): Promise<void> {
  if (useReplay.getState().running) return;
  const sessionId = newSessionId();
  useReplay.setState({
    target,
    ranAgainst: target,
    sessionId,
    running: true,
    stopRequested: false,
    rows: steps.map((s) => ({ user: s.user, original: s.original, state: 'waiting' })),
  });
  try {
    for (let i = 0; i < steps.length; i++) {
      if (useReplay.getState().stopRequested) {
        useReplay.setState(({ rows }) => ({
          rows: rows.map((r) => (r.state === 'waiting' ? { ...r, state: 'skipped' } : r)),
        }));
        return;
      }
      patchRow(i, { state: 'sending' });
      try {
        const reply = await sendChat({
          message: (steps[i] as ReplayStep).user,
          agent: target,
          session_id: sessionId,
          startedHere: true,
        });
        patchRow(i, { state: 'done', reply: reply.response, requestId: reply.request_id });
      } catch (error) {
        patchRow(i, { state: 'failed', error: asBridgeError(error) });
        useReplay.setState(({ rows }) => ({
          rows: rows.map((r) => (r.state === 'waiting' ? { ...r, state: 'skipped' } : r)),
        }));
        return;
      }
    }
  } finally {
    useReplay.setState({ running: false, stopRequested: false });
  }
}
