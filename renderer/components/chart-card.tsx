// A chart with its table (every chart has a table view, for screen readers and for
// copying). The table is always in the page: visually hidden under the chart, so a screen reader
// reads numbers rather than an SVG; "Table" shows it to everyone; "Copy" puts it on the clipboard
// as tab-separated text, which pastes into a spreadsheet as cells.
import { useId, useState, type ReactNode } from 'react';
import './chart-card.css';

export interface TableData {
  caption: string;
  columns: string[];
  rows: (string | number)[][];
}

function asTsv(table: TableData): string {
  return [table.columns, ...table.rows].map((row) => row.join('\t')).join('\n');
}

function DataTable({ table }: { table: TableData }) {
  // Numbers line up on the right, their headings with them.
  const isNumber = (cell: string | number | undefined) =>
    typeof cell === 'number' || /^[\d.,]+%$/.test(cell ?? '');
  const numeric = table.columns.map((_, j) => isNumber(table.rows[0]?.[j]));
  return (
    <table className="table chart-table">
      <caption>{table.caption}</caption>
      <thead>
        <tr>
          {table.columns.map((c, j) => (
            <th key={c} scope="col" className={j > 0 && numeric[j] ? 'num' : undefined}>
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {table.rows.length === 0 ? (
          <tr>
            <td colSpan={table.columns.length} className="empty">
              No rows.
            </td>
          </tr>
        ) : (
          table.rows.map((row, i) => (
            <tr key={i}>
              {row.map((cell, j) =>
                j === 0 ? (
                  <th key={j} scope="row">
                    {cell}
                  </th>
                ) : (
                  <td key={j} className={numeric[j] ? 'num' : undefined}>
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}

interface ChartCardProps {
  title: string;
  /** One line under the title: what is drawn and how to read it. */
  note?: ReactNode;
  chart: ReactNode;
  table: TableData;
  className?: string;
}

export function ChartCard({ title, note, chart, table, className }: ChartCardProps) {
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const [copied, setCopied] = useState<'yes' | 'failed'>();
  const headingId = useId();
  async function copy() {
    try {
      await navigator.clipboard.writeText(asTsv(table));
      setCopied('yes');
    } catch {
      // No clipboard permission (or an insecure page): show the table to select by hand.
      setCopied('failed');
      setView('table');
    }
  }
  return (
    <section className={`card chart-card ${className ?? ''}`} aria-labelledby={headingId}>
      <div className="chart-card-head">
        <h2 id={headingId}>{title}</h2>
        <div className="chart-card-views" role="group" aria-label={`${title}: view`}>
          <button
            type="button"
            className={view === 'chart' ? '' : 'secondary'}
            aria-pressed={view === 'chart'}
            onClick={() => setView('chart')}
          >
            Chart
          </button>
          <button
            type="button"
            className={view === 'table' ? '' : 'secondary'}
            aria-pressed={view === 'table'}
            onClick={() => setView('table')}
          >
            Table
          </button>
          <button type="button" className="secondary" onClick={() => void copy()}>
            Copy
          </button>
          <span role="status" className="chart-card-copied">
            {copied === 'yes' ? 'Copied' : copied === 'failed' ? 'Select the table to copy' : ''}
          </span>
        </div>
      </div>
      {note ? <p className="chart-card-note">{note}</p> : null}
      {view === 'chart' ? (
        <>
          {/* Drawn for the eye; the Table view is the same data for a screen reader, so the chart
              is hidden from it, and its charts take no keyboard focus (accessibilityLayer off). */}
          <div className="chart-card-chart" aria-hidden="true">
            {chart}
          </div>
          <div className="visually-hidden">
            <DataTable table={table} />
          </div>
        </>
      ) : (
        <div className="chart-card-table">
          <DataTable table={table} />
        </div>
      )}
    </section>
  );
}

/** What shows while the chart code (a separate chunk) loads. */
export function ChartLoading({ height }: { height: number }) {
  return (
    <div className="chart-loading" style={{ height }} role="status">
      Loading chart…
    </div>
  );
}
