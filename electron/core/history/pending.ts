// What a conversation looks like with the changes still waiting in memory (a write failed and is
// being retried): the stored record with those changes laid over it, as a restart will show it once
// they land. The same rules as writes.ts, on a transcript in memory.
import type { Transcript, TranscriptSummary } from '../../../shared/transcript';
import { firstAskOf, PREVIEW_CHARS, type HistoryChange } from './writes';

export function overlay(stored: Transcript | undefined, changes: HistoryChange[]): Transcript | undefined {
  let t = stored && structuredClone(stored);
  for (const change of changes) {
    if (change.type === 'remove') t = undefined;
    else if (change.type === 'knownFrom') {
      if (t) t.knownFrom = change.knownFrom;
    } else {
      const { ref, message, init } = change;
      if (!t) {
        if (!init) continue;
        t = { ...ref, ...init, createdAt: message.at, lastActivityAt: message.at, messages: [] };
      } else if (init) {
        if (init.agent) t.agent = init.agent;
        if (init.title !== undefined) t.title = init.title;
      }
      t.messages.push(structuredClone(message));
      if (Date.parse(message.at) > Date.parse(t.lastActivityAt)) t.lastActivityAt = message.at;
    }
  }
  return t;
}

export function summarise(t: Transcript): TranscriptSummary {
  const last = t.messages.at(-1);
  const firstAsk = t.kind === 'session' ? t.messages.find((m) => m.role === 'user') : undefined;
  const title = t.title ?? (firstAsk ? firstAskOf(firstAsk) : undefined);
  return {
    profileId: t.profileId,
    kind: t.kind,
    id: t.id,
    agent: t.agent,
    ...(title ? { title } : {}),
    knownFrom: t.knownFrom,
    messageCount: t.messages.length,
    createdAt: t.createdAt,
    lastActivityAt: t.lastActivityAt,
    ...(last
      ? {
          lastMessage: {
            role: last.role,
            status: last.status,
            preview: last.content.slice(0, PREVIEW_CHARS),
          },
        }
      : {}),
  };
}
