// A table that renders only the rows in view (@tanstack/react-virtual), so 10,000 conversations
// scroll as smoothly as 10. It stays a real <table> for screen readers and tests:
// two spacer rows stand in for the rows above and below the window. Rows have one fixed height
// and the columns fixed widths, so nothing is measured or re-laid out while scrolling.
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  memo,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { recallScroll, rememberScroll } from './scroll-memory';

const ROW_HEIGHT = 36;

export interface Column<T> {
  key: string;
  header: string;
  /** CSS width of the column (table-layout is fixed). */
  width?: string;
  /** Its width when the table is compact (beside a detail panel); without one it is hidden then. */
  compactWidth?: string;
  cell(row: T): ReactNode;
  /** Current sort on this column; with `onSort`, the header becomes a button. */
  sort?: 'ascending' | 'descending' | 'none';
  onSort?(): void;
  className?: string;
}

interface VirtualTableProps<T> {
  label: string;
  rows: readonly T[];
  columns: readonly Column<T>[];
  rowKey(row: T): string;
  selectedKey?: string | undefined;
  onSelect?(row: T): void;
  /** Where the scroll position is remembered across visits. */
  scrollKey: string;
  /** When this changes (a new filter or page), the list starts again from the top. */
  resetKey?: string;
  /** What the body says when there are no rows: loading, empty or an error. */
  placeholder?: ReactNode;
  /** CSS max-height of the scrolling area. */
  height?: string;
  /** Beside a detail panel: only the columns with a `compactWidth`, so none is cut to a few letters. */
  compact?: boolean;
}

interface RowEvents<T> {
  select(row: T): void;
  key(event: KeyboardEvent<HTMLTableRowElement>, index: number): void;
}

interface RowProps<T> {
  row: T;
  index: number;
  selected: boolean;
  /** The one row Tab reaches (the selected one, else the first in view); arrows move from it. */
  tabbable: boolean;
  interactive: boolean;
  columns: readonly Column<T>[];
  events: RefObject<RowEvents<T>>;
}

/** One row; memoised, so scrolling renders only the rows that come into view. */
function VirtualRowImpl<T>({ row, index, selected, tabbable, interactive, columns, events }: RowProps<T>) {
  return (
    <tr
      data-index={index}
      aria-rowindex={index + 2}
      aria-selected={interactive ? selected : undefined}
      className={selected ? 'selected' : undefined}
      tabIndex={interactive ? (tabbable ? 0 : -1) : undefined}
      onClick={interactive ? () => events.current.select(row) : undefined}
      onKeyDown={interactive ? (event) => events.current.key(event, index) : undefined}
    >
      {columns.map((c) => {
        const content = c.cell(row);
        // Cells cut to their column's width end in an ellipsis; plain text keeps the whole in a tooltip.
        const whole =
          typeof content === 'string' || typeof content === 'number' ? String(content) : undefined;
        return (
          <td key={c.key} className={c.className} title={whole}>
            {content}
          </td>
        );
      })}
    </tr>
  );
}

const VirtualRow = memo(VirtualRowImpl) as typeof VirtualRowImpl;

function VirtualTableImpl<T>({
  label,
  rows,
  columns: allColumns,
  rowKey,
  selectedKey,
  onSelect,
  scrollKey,
  resetKey,
  placeholder,
  height = 'calc(100vh - 290px)',
  compact = false,
}: VirtualTableProps<T>) {
  const columns = useMemo(
    () =>
      compact
        ? allColumns.filter((c) => c.compactWidth).map((c) => ({ ...c, width: c.compactWidth }))
        : allColumns,
    [allColumns, compact],
  );
  const scrollRef = useRef<HTMLDivElement>(null);
  const headRef = useRef<HTMLTableSectionElement>(null);
  // The sticky header sits above the first row: the virtualizer counts it as padding, so the rows
  // it picks are the ones really in view and a row scrolled to is not left under the header.
  const [headHeight, setHeadHeight] = useState(34);
  useLayoutEffect(() => {
    const height = headRef.current?.offsetHeight;
    if (height) setHeadHeight(height);
  }, []);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    paddingStart: headHeight,
    scrollPaddingStart: headHeight,
    initialOffset: () => recallScroll(scrollKey),
  });

  // Back where the user left it: the cached rows are already here on the first render.
  useLayoutEffect(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = recallScroll(scrollKey);
  }, [scrollKey]);

  // Compared with the last key, not "skip the first run", so StrictMode's double effects are harmless.
  const lastReset = useRef(resetKey);
  useEffect(() => {
    if (lastReset.current === resetKey) return;
    lastReset.current = resetKey;
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
    rememberScroll(scrollKey, 0);
  }, [resetKey, scrollKey]);

  const items = virtualizer.getVirtualItems();
  const selectedInView =
    selectedKey !== undefined && items.some((i) => rowKey(rows[i.index] as T) === selectedKey);
  const firstInView = items[0]?.index;
  const padTop = Math.max(0, (items[0]?.start ?? headHeight) - headHeight);
  const padBottom = Math.max(0, virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0));

  // Arrow keys move between rows, as in a list box; Enter or Space opens the focused one. Kept in
  // a ref so the memoised rows need not re-render when the handlers' closures change.
  const events = useRef<RowEvents<T>>({ select: () => undefined, key: () => undefined });
  events.current = {
    select: (row) => onSelect?.(row),
    key: (event, index) => {
      // Keys pressed on a control inside the row (a button) are that control's.
      if (event.target !== event.currentTarget) return;
      const row = rows[index];
      if ((event.key === 'Enter' || event.key === ' ') && row !== undefined) {
        event.preventDefault();
        onSelect?.(row);
        return;
      }
      const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
      if (!step) return;
      event.preventDefault();
      const next = Math.min(rows.length - 1, Math.max(0, index + step));
      virtualizer.scrollToIndex(next, { align: 'auto' });
      requestAnimationFrame(() =>
        scrollRef.current?.querySelector<HTMLElement>(`tr[data-index="${next}"]`)?.focus(),
      );
    },
  };

  return (
    <div
      className="vt-scroll"
      ref={scrollRef}
      style={{ maxHeight: height }}
      onScroll={(event) => rememberScroll(scrollKey, event.currentTarget.scrollTop)}
    >
      <table className="table vt-table" aria-label={label} aria-rowcount={rows.length + 1}>
        <colgroup>
          {columns.map((c) => (
            <col key={c.key} style={c.width ? { width: c.width } : undefined} />
          ))}
        </colgroup>
        <thead ref={headRef}>
          <tr>
            {columns.map((c) => (
              <th
                key={c.key}
                scope="col"
                title={c.header}
                aria-sort={c.onSort ? (c.sort ?? 'none') : undefined}
              >
                {c.onSort ? (
                  <button type="button" className="vt-sort" onClick={c.onSort}>
                    <span className="vt-sort-label">{c.header}</span>
                    <span aria-hidden="true" className="vt-sort-mark">
                      {c.sort === 'ascending' ? '▲' : c.sort === 'descending' ? '▼' : ''}
                    </span>
                  </button>
                ) : (
                  c.header
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="vt-placeholder">
                {placeholder}
              </td>
            </tr>
          ) : null}
          {padTop > 0 ? (
            <tr aria-hidden="true" className="vt-spacer" style={{ height: padTop }}>
              <td colSpan={columns.length} />
            </tr>
          ) : null}
          {items.map((item) => {
            const row = rows[item.index] as T;
            const key = rowKey(row);
            return (
              <VirtualRow
                key={key}
                row={row}
                index={item.index}
                selected={key === selectedKey}
                tabbable={selectedInView ? key === selectedKey : item.index === firstInView}
                interactive={onSelect !== undefined}
                columns={columns}
                events={events}
              />
            );
          })}
          {padBottom > 0 ? (
            <tr aria-hidden="true" className="vt-spacer" style={{ height: padBottom }}>
              <td colSpan={columns.length} />
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}

export const VirtualTable = memo(VirtualTableImpl) as typeof VirtualTableImpl;
