// The threads table: the spec's fields (§2) and whether this console knows the history.
import type { ReceivedThread as Thread } from '../../../shared/received';
import { RelativeTime } from '../../components/relative-time';
import type { Column } from '../../components/virtual-table';

export function threadColumns(known: Map<string, 'start' | 'partial'>): Column<Thread>[] {
  return [
    {
      key: 'title',
      header: 'Title',
      width: '32%',
      compactWidth: '40%',
      cell: (t) => (
        <span className="cell-strong" title={`${t.title}\n${t.id}`}>
          {t.title || <span className="muted">Untitled</span>}
        </span>
      ),
    },
    { key: 'agent', header: 'Agent', width: '14%', compactWidth: '18%', cell: (t) => t.agent },
    { key: 'count', header: 'Messages', width: '11%', cell: (t) => t.message_count },
    { key: 'created', header: 'Created', width: '14%', cell: (t) => <RelativeTime iso={t.created_at} /> },
    {
      key: 'updated',
      header: 'Updated',
      width: '14%',
      compactWidth: '20%',
      cell: (t) => <RelativeTime iso={t.updated_at} />,
    },
    {
      key: 'history',
      header: 'History',
      width: '15%',
      compactWidth: '22%',
      cell: (t) => {
        const k = known.get(t.id);
        return k ? (
          <span className="known">{k === 'start' ? 'Known' : 'Partly known'}</span>
        ) : (
          <span className="muted">—</span>
        );
      },
    },
  ];
}
