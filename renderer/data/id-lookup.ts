// Finds what an id names: an agent (slug or agent_id), a thread, or a conversation (id or
// session_id). The API has no get-by-id endpoints, so lookups read the lists: agents and threads
// are one cached request each; conversations are paged through (cached pages first) until found.
import type {
  ReceivedAgent as Agent,
  ReceivedConversation as Conversation,
  ReceivedConversationList as ConversationList,
  ReceivedThread as Thread,
} from '../../shared/received';
import { lookupOrder } from './id-shape';
import { allAgentsQuery } from './agents';
import { conversationsPage } from './conversations';
import { MAX_PAGE } from './fetch-all-pages';
import { queryClient } from './query-client';
import { queryKeys } from './query-keys';
import { threadsQuery } from './threads';
import { isKnownTranscript } from './transcripts';

export type LookupResult =
  | { kind: 'agent'; agent: Agent }
  | { kind: 'thread'; thread: Thread | undefined; id: string }
  | { kind: 'conversation'; conversation: Conversation | undefined; sessionId: string }
  | { kind: 'none' };

type Progress = (text: string) => void;

async function findConversation(
  profile: string | undefined,
  id: string,
  progress: Progress,
  signal: AbortSignal,
): Promise<Conversation | undefined> {
  const matches = (c: Conversation) => c.id === id || c.session_id === id;
  // Anything already loaded, on any page or filter.
  for (const [, data] of queryClient.getQueriesData<ConversationList | Conversation[]>({
    queryKey: queryKeys.conversations.of(profile),
  })) {
    const rows = Array.isArray(data) ? data : data?.conversations;
    const hit = rows?.find(matches);
    if (hit) return hit;
  }
  let offset = 0;
  let total = Infinity;
  while (offset < total && !signal.aborted) {
    progress(`Looking through conversations${Number.isFinite(total) ? `: ${offset} of ${total}` : ''}…`);
    const page = await conversationsPage(MAX_PAGE, offset);
    total = page.total;
    const hit = page.conversations.find(matches);
    if (hit) return hit;
    if (page.conversations.length < MAX_PAGE) break;
    offset += MAX_PAGE;
  }
  return undefined;
}

export async function lookupId(
  profile: string | undefined,
  rawId: string,
  progress: Progress,
  signal: AbortSignal,
): Promise<LookupResult> {
  const id = rawId.trim();
  for (const kind of lookupOrder(id)) {
    if (signal.aborted) break;
    if (kind === 'agent') {
      progress('Looking through agents…');
      const agents = await queryClient.fetchQuery(allAgentsQuery(profile));
      const agent = agents.find((a) => a.slug === id || a.agent_id.toLowerCase() === id.toLowerCase());
      if (agent) return { kind: 'agent', agent };
    } else if (kind === 'thread') {
      progress('Looking through threads…');
      const threads = await queryClient.fetchQuery(threadsQuery(profile));
      const thread = threads.find((t) => t.id === id);
      if (thread) return { kind: 'thread', thread, id };
      // A thread this client knows but the service no longer lists still has a history to read.
      if (await isKnownTranscript('thread', id)) return { kind: 'thread', thread: undefined, id };
    } else {
      const conversation = await findConversation(profile, id, progress, signal);
      if (conversation) return { kind: 'conversation', conversation, sessionId: conversation.session_id };
      if (await isKnownTranscript('session', id)) {
        return { kind: 'conversation', conversation: undefined, sessionId: id };
      }
    }
  }
  return { kind: 'none' };
}
