// Sorting within the loaded rows: the API has no sort parameter, so this orders what is on screen
// (one page, or every page with the "All" page size), never the whole listing.
import type { ReceivedConversation as Conversation } from '../../../shared/received';
import type { ConversationSortKey } from '../../stores/conversations-view';

export type SortState = { key: ConversationSortKey; dir: 'ascending' | 'descending' } | undefined;

export function sortConversations(rows: readonly Conversation[], sort: SortState): readonly Conversation[] {
  if (!sort) return rows;
  const { key, dir } = sort;
  const sign = dir === 'ascending' ? 1 : -1;
  const collator = new Intl.Collator('en', { numeric: true });
  // ISO timestamps of one shape sort correctly as text; counts are numbers.
  return [...rows].sort((a, b) => {
    const x = a[key];
    const y = b[key];
    const order =
      typeof x === 'number' && typeof y === 'number' ? x - y : collator.compare(String(x), String(y));
    return order * sign || a.id.localeCompare(b.id);
  });
}

/** Header clicks cycle: ascending, descending, then the service's own order again. */
export function nextSort(current: SortState, key: ConversationSortKey): SortState {
  if (current?.key !== key) return { key, dir: 'ascending' };
  return current.dir === 'ascending' ? { key, dir: 'descending' } : undefined;
}
