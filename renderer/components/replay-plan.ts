// What a replay sends: the user messages of a known history, each beside the reply it got then.
import type { Transcript, TranscriptMessage } from '../../shared/transcript';

export interface ReplayStep {
  user: string;
  /** The first agent message after this user message, if one was recorded. */
  original?: TranscriptMessage;
}

export function replaySteps(transcript: Pick<Transcript, 'messages'>): ReplayStep[] {
  const steps: ReplayStep[] = [];
  for (const message of transcript.messages) {
    if (message.role === 'user') steps.push({ user: message.content });
    else {
      const last = steps.at(-1);
      if (last && !last.original) last.original = message;
    }
  }
  return steps;
}

/** A fresh session id (spec §4: alphanumeric, at most 128), so the replay is a conversation of its own. */
export function newSessionId(): string {
  return `replay${crypto.randomUUID().replaceAll('-', '')}`;
}
