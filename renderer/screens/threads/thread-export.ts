// What a thread's export says about the thread itself (components/history-export.ts writes it).
import type { ReceivedThread as Thread } from '../../../shared/received';
import type { HistorySubject } from '../../components/history-export';

type ThreadFacts = Pick<Thread, 'id' | 'title' | 'agent' | 'message_count' | 'created_at'> & {
  updated_at?: string;
};

export function threadSubject(thread: ThreadFacts): HistorySubject {
  return {
    kind: 'thread',
    id: thread.id,
    title: thread.title || 'Untitled thread',
    facts: [
      { label: 'Thread', value: thread.id, code: true },
      { label: 'Agent', value: thread.agent, code: true },
      { label: 'Messages on the service', value: String(thread.message_count) },
      { label: 'Created', value: thread.created_at },
      ...(thread.updated_at ? [{ label: 'Updated', value: thread.updated_at }] : []),
    ],
    listed: thread,
  };
}
