// The list every browser shows (agents, conversations, threads): the virtualised table, what it
// says with no rows (loading, empty, an error with a retry), and an error kept in view above rows
// already loaded when a refresh fails.
import type { ReactNode } from 'react';
import { ListPlaceholder } from './list-states';
import { VirtualTable, type Column } from './virtual-table';

interface BrowseListProps<T> {
  label: string;
  /** Plural, for the placeholder's words: "conversations". */
  noun: string;
  rows: readonly T[];
  columns: readonly Column<T>[];
  rowKey(row: T): string;
  selectedKey: string | undefined;
  onSelect(row: T): void;
  compact: boolean;
  scrollKey: string;
  resetKey: string;
  query: { isPending: boolean; error: unknown; refetch(): unknown };
  /** Whether rows from an earlier load are on screen (then an error shows above, not instead). */
  loaded: boolean;
  /** What "no rows" means here. */
  empty: string;
  /** Under the list: the pager, a count, a footnote. */
  children?: ReactNode;
}

export function BrowseList<T>(props: BrowseListProps<T>) {
  const { query, noun } = props;
  const retry = () => void query.refetch();
  return (
    <div className="browse-list">
      <VirtualTable
        label={props.label}
        rows={props.rows}
        columns={props.columns}
        rowKey={props.rowKey}
        selectedKey={props.selectedKey}
        onSelect={props.onSelect}
        compact={props.compact}
        scrollKey={props.scrollKey}
        resetKey={props.resetKey}
        placeholder={
          <ListPlaceholder
            loading={query.isPending}
            error={query.error}
            noun={noun}
            empty={props.empty}
            onRetry={retry}
          />
        }
      />
      {query.error && props.loaded ? (
        <ListPlaceholder loading={false} error={query.error} noun={noun} empty="" onRetry={retry} />
      ) : null}
      {props.children}
    </div>
  );
}
