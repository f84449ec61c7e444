// The playground's state: the open session, its turns, compare rounds, the draft and the choices
// above the composer. Turns change only when a reply changes state (queued → streaming → done);
// the text of a streaming reply lives in its StreamBuffer, so a chunk never touches this store.
import { create } from 'zustand';
import type { BridgeError, StreamEndEvent } from '../../../shared/bridge';
import type { KnownFrom } from '../../../shared/transcript';
import { containsKeyShaped } from '../../../shared/key-shape';
import { newSessionId } from './limits';

/**
 * `queued`: waiting behind earlier messages of the session; `scheduled`: "Send when allowed" is
 * counting down; `sending`: handed to the core (which may hold it for the rate limit).
 */
export type ReplyStatus = 'queued' | 'scheduled' | 'sending' | 'streaming' | 'done' | 'stopped' | 'failed';

export interface ChatRequest {
  message: string;
  /** Slug; undefined sends no `agent` (the service's default agent). */
  agent?: string | undefined;
  session_id?: string | undefined;
  startedHere?: boolean | undefined;
  stream: boolean;
  /** The profile it is sent with (the session's) and that profile's key, as they were at send time. */
  profileId?: string | undefined;
  keyId?: string | undefined;
}

export interface UserTurn {
  role: 'user';
  id: string;
  text: string;
  at: number;
  /** The id of the reply it asked for (none for a message reopened without one). */
  replyId?: string | undefined;
}

export interface ReplyTurn {
  role: 'agent';
  id: string;
  request: ChatRequest;
  status: ReplyStatus;
  /** Handed to the core at (epoch ms): drives "waiting" and elapsed time. */
  sentAt?: number | undefined;
  streamId?: string | undefined;
  stopRequested?: boolean | undefined;
  /** Stopped (or cancelled) before anything was sent. */
  neverSent?: boolean | undefined;
  requestId?: string | undefined;
  timing?: StreamEndEvent['timing'] | undefined;
  /** The raw frames: with the end for a short stream, read on demand (`chat:frames`) for a long one. */
  frames?: StreamEndEvent['frames'] | undefined;
  /** Set once the stream ended: how many raw frames it had, and whether `[DONE]` was among them. */
  frameCount?: number | undefined;
  sawDone?: boolean | undefined;
  chunkCount?: number | undefined;
  error?: BridgeError | undefined;
  failedAt?: number | undefined;
  /** "Send when allowed": goes out again at this epoch ms. */
  sendAt?: number | undefined;
  /** Reopened from the transcript store: text and status only, no stream details. */
  fromHistory?: boolean | undefined;
  attempts: number;
}

export type Turn = UserTurn | ReplyTurn;

export interface CompareRound {
  id: string;
  message: string;
  at: number;
  replyIds: string[];
}

interface SessionState {
  id: string;
  /** A new session this console began (its transcript is known from the first message). */
  startedHere: boolean;
  knownFrom?: KnownFrom | undefined;
  /** True while its transcript is being read. */
  loading: boolean;
  /** No local record existed when it was opened (a pasted id, or one recorded elsewhere). */
  unknownLocally?: boolean | undefined;
  loadError?: BridgeError | undefined;
}

export type Mode = 'chat' | 'compare';

export interface PlaygroundState {
  session: SessionState;
  ids: string[];
  turns: Record<string, Turn>;
  rounds: CompareRound[];
  draft: string;
  /** Why the draft holds what it holds (a failed message put back). */
  draftNote?: string | undefined;
  agent?: string | undefined;
  compareAgents: string[];
  stream: boolean;
  mode: Mode;
  /** The active profile: new messages go out with it (kept in step by the playground screen). */
  profileId?: string | undefined;
}

const PREFS_KEY = 'agent-console.playground';

interface Prefs {
  sessionId?: string;
  agent?: string;
  compareAgents?: string[];
  stream?: boolean;
  mode?: Mode;
  draft?: string;
  /**
   * Messages of the open session still waiting their turn in this page (queued behind an earlier
   * reply, not yet handed to the core, which keeps what it was given across a reload).
   */
  waiting?: string[];
}

function loadPrefs(): Prefs {
  try {
    return (JSON.parse(localStorage.getItem(PREFS_KEY) ?? '{}') as Prefs) ?? {};
  } catch {
    return {};
  }
}

const prefs = loadPrefs();

/** The draft after a reload: what was in the box, then any message that was still waiting. */
function restoredDraft(): { draft: string; draftNote?: string } {
  const waiting = (prefs.waiting ?? []).filter((m) => typeof m === 'string' && m !== '');
  if (waiting.length === 0) return { draft: prefs.draft ?? '' };
  const draft = [prefs.draft ?? '', ...waiting].filter((m) => m.trim() !== '').join('\n\n');
  const count = waiting.length === 1 ? 'A message that was' : `${waiting.length} messages that were`;
  return {
    draft,
    draftNote: `${count} still waiting to be sent when the page closed ${waiting.length === 1 ? 'is' : 'are'} back in the box: send again when ready.`,
  };
}

export const usePlayground = create<PlaygroundState>(() => ({
  session: {
    id: prefs.sessionId ?? newSessionId(),
    // A remembered session is reopened from its transcript (session-actions.ts).
    startedHere: prefs.sessionId === undefined,
    loading: prefs.sessionId !== undefined,
  },
  ids: [],
  turns: {},
  rounds: [],
  ...restoredDraft(),
  agent: prefs.agent,
  compareAgents: prefs.compareAgents ?? [],
  stream: prefs.stream ?? true,
  mode: prefs.mode ?? 'chat',
}));

/** True when the page opened on a session remembered from before the reload. */
export const reopenedSessionId: string | undefined = prefs.sessionId;

const KEY_IN_DRAFT_NOTE =
  'This draft holds something shaped like an API key, so it is not kept across a reload.';

/** The open session's messages not yet handed to the core, in the order typed. */
function waitingMessages(state: PlaygroundState): string[] {
  return state.ids
    .map((id) => state.turns[id])
    .filter(
      (t): t is ReplyTurn =>
        t?.role === 'agent' && t.status === 'queued' && t.streamId === undefined && !t.neverSent,
    )
    .map((t) => t.request.message);
}

// What the user chose and typed survives a reload; a draft only up to 1 MB (localStorage is small).
let saveTimer: ReturnType<typeof setTimeout> | undefined;
let savedWaiting: string[] = [];
usePlayground.subscribe((state, previous) => {
  const waiting = waitingMessages(state);
  const waitingChanged = waiting.join('\u0000') !== savedWaiting.join('\u0000');
  if (
    !waitingChanged &&
    state.session.id === previous.session.id &&
    state.agent === previous.agent &&
    state.compareAgents === previous.compareAgents &&
    state.stream === previous.stream &&
    state.mode === previous.mode &&
    state.draft === previous.draft
  ) {
    return;
  }
  clearTimeout(saveTimer);
  saveTimer = setTimeout(savePrefs, 250);
});
// A reload or a closed tab does not wait for the timer.
if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => {
    if (saveTimer !== undefined) savePrefs();
  });
}

function savePrefs(): void {
  clearTimeout(saveTimer);
  saveTimer = undefined;
  const s = usePlayground.getState();
  // A key pasted into the draft is never written to browser storage; the user is told.
  const keyInDraft = containsKeyShaped(s.draft);
  if (keyInDraft && s.draftNote !== KEY_IN_DRAFT_NOTE)
    usePlayground.setState({ draftNote: KEY_IN_DRAFT_NOTE });
  // Like the draft, a waiting message shaped like a key is not written down.
  const waitingNow = waitingMessages(s).filter((m) => m.length <= 1_000_000 && !containsKeyShaped(m));
  savedWaiting = waitingMessages(s);
  const saved: Prefs = {
    sessionId: s.session.id,
    ...(waitingNow.length > 0 ? { waiting: waitingNow } : {}),
    ...(s.agent ? { agent: s.agent } : {}),
    compareAgents: s.compareAgents,
    stream: s.stream,
    mode: s.mode,
    ...(s.draft.length <= 1_000_000 && !keyInDraft ? { draft: s.draft } : {}),
  };
  try {
    localStorage.setItem(PREFS_KEY, JSON.stringify(saved));
  } catch {
    // Storage full or refused: the draft is still in the box, only not kept across a reload.
  }
}

function turnOf(id: string): Turn | undefined {
  return usePlayground.getState().turns[id];
}

export function replyOf(id: string): ReplyTurn | undefined {
  const turn = turnOf(id);
  return turn?.role === 'agent' ? turn : undefined;
}

export function updateReply(id: string, patch: Partial<ReplyTurn>): void {
  usePlayground.setState((s) => {
    const turn = s.turns[id];
    if (turn?.role !== 'agent') return s;
    return { turns: { ...s.turns, [id]: { ...turn, ...patch } } };
  });
}

/** Replies that are on their way (for Stop and for the "busy" state of the composer). */
export function isActive(status: ReplyStatus): boolean {
  return status === 'queued' || status === 'scheduled' || status === 'sending' || status === 'streaming';
}
