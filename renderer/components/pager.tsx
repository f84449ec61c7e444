// The pager of an API-paginated list (limit/offset): where we are, the total the service reported,
// previous/next, and the page size. `hasMore` (agents) or the total (conversations) decides "Next".

interface PagerProps<Size extends number | 'all'> {
  label: string;
  offset: number;
  limit: Size;
  sizes: readonly Size[];
  /** Rows on this page. */
  count: number;
  total: number | undefined;
  hasMore?: boolean | undefined;
  busy?: boolean;
  onOffset(offset: number): void;
  onLimit(limit: Size): void;
}

export function Pager<Size extends number | 'all'>({
  label,
  offset,
  limit,
  sizes,
  count,
  total,
  hasMore,
  busy,
  onOffset,
  onLimit,
}: PagerProps<Size>) {
  const all = limit === 'all';
  const size = all ? count : (limit as number);
  const more = hasMore ?? (total !== undefined && offset + count < total);
  const page = all || size === 0 ? 1 : Math.floor(offset / size) + 1;
  const pages = all || total === undefined || size === 0 ? 1 : Math.max(1, Math.ceil(total / size));
  const range = count === 0 ? 'No rows' : all ? `All ${count}` : `${offset + 1}–${offset + count}`;
  return (
    <nav className="pager" aria-label={label}>
      <span className="pager-range" data-testid="pager-range">
        {range}
        {total !== undefined ? ` of ${total}` : ''}
        {!all && total !== undefined ? (
          <span className="muted">
            {' '}
            · page {page} of {pages}
          </span>
        ) : null}
      </span>
      {!all ? (
        <>
          <button
            type="button"
            className="secondary"
            disabled={busy || offset === 0}
            onClick={() => onOffset(Math.max(0, offset - size))}
          >
            Previous
          </button>
          <button
            type="button"
            className="secondary"
            disabled={busy || !more}
            onClick={() => onOffset(offset + size)}
          >
            Next
          </button>
        </>
      ) : null}
      <label className="pager-size">
        <span>Page size</span>
        <select
          value={String(limit)}
          onChange={(event) => {
            const value = event.target.value;
            onLimit((value === 'all' ? 'all' : Number(value)) as Size);
          }}
        >
          {sizes.map((s) => (
            <option key={String(s)} value={String(s)}>
              {s === 'all' ? 'All' : s}
            </option>
          ))}
        </select>
      </label>
    </nav>
  );
}
