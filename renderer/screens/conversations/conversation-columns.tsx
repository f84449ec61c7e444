// The conversations table: the spec's columns (§2), sortable within the loaded rows, plus whether
// this console knows the history.
import { knownConversationStatus, UNKNOWN_CONVERSATION_STATUS } from '../../../shared/known-values';
import type { ReceivedConversation as Conversation } from '../../../shared/received';
import { RelativeTime } from '../../components/relative-time';
import type { Column } from '../../components/virtual-table';
import { useConversationsView, type ConversationSortKey } from '../../stores/conversations-view';
import { nextSort, type SortState } from './conversation-sort';

function sortable(
  key: ConversationSortKey,
  header: string,
  width: string,
  compactWidth: string | undefined,
  sort: SortState,
  cell: Column<Conversation>['cell'],
): Column<Conversation> {
  return {
    key,
    header,
    width,
    ...(compactWidth ? { compactWidth } : {}),
    cell,
    sort: sort?.key === key ? sort.dir : 'none',
    onSort: () => useConversationsView.setState(({ sort: s }) => ({ sort: nextSort(s, key) })),
  };
}

export function conversationColumns(
  sort: SortState,
  known: Map<string, 'start' | 'partial'>,
): Column<Conversation>[] {
  return [
    sortable('session_id', 'Session', '24%', '38%', sort, (c) => (
      <code title={`${c.session_id}\nid ${c.id}`}>{c.session_id}</code>
    )),
    sortable('agent', 'Agent', '13%', '20%', sort, (c) => c.agent),
    sortable('message_count', 'Messages', '11%', undefined, sort, (c) => c.message_count),
    sortable('started_at', 'Started', '13%', undefined, sort, (c) => <RelativeTime iso={c.started_at} />),
    sortable('last_message_at', 'Last message', '14%', '24%', sort, (c) => (
      <RelativeTime iso={c.last_message_at} />
    )),
    sortable('status', 'Status', '11%', '18%', sort, (c) => (
      <span
        className={`conv-status conv-status-${c.status === 'active' ? 'active' : 'other'}`}
        title={knownConversationStatus(c.status) ? c.status : UNKNOWN_CONVERSATION_STATUS}
      >
        {c.status}
        {knownConversationStatus(c.status) ? null : <span className="status-badge-unknown"> (unknown)</span>}
      </span>
    )),
    {
      key: 'history',
      header: 'History',
      width: '14%',
      cell: (c) => {
        const k = known.get(c.session_id);
        return k ? (
          <span className="known" title="This console recorded messages of this conversation">
            {k === 'start' ? 'Known' : 'Partly known'}
          </span>
        ) : (
          <span className="muted">—</span>
        );
      },
    },
  ];
}
