// The Log's filter: by method, path, status class and free text. Pure, so the screen
// and its tests agree on what a filter keeps.
import type { RequestLogRow } from '../../../shared/request-log-entry';

export interface LogFilter {
  /** '' for any method. */
  method: string;
  /** Part of the path (and query), case-insensitive. */
  path: string;
  /** '' any, '2xx' … '5xx', or 'none' (no HTTP reply: network failure, abort). */
  status: string;
  /** Anywhere in the URL, request id, error code, status or the request's and response's bodies. */
  text: string;
}

export const NO_FILTER: LogFilter = { method: '', path: '', status: '', text: '' };

export function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

function statusClass(status: number): string {
  return status === 0 ? 'none' : `${Math.floor(status / 100)}xx`;
}

/**
 * Whether `entry` is kept. The rows carry no bodies: `bodyMatches` are the ids of the entries whose
 * bodies hold the filter's text, as the core found them (useLogBodyMatches).
 */
export function matchesFilter(
  entry: RequestLogRow,
  filter: LogFilter,
  bodyMatches: ReadonlySet<string> = new Set(),
): boolean {
  if (filter.method && entry.method !== filter.method) return false;
  if (filter.status && statusClass(entry.status) !== filter.status) return false;
  const path = filter.path.trim().toLowerCase();
  if (path && !pathOf(entry.url).toLowerCase().includes(path)) return false;
  const text = filter.text.trim().toLowerCase();
  if (!text) return true;
  return (
    bodyMatches.has(entry.id) ||
    [entry.url, entry.requestId ?? '', entry.errorCode ?? '', String(entry.status || '')].some((field) =>
      field.toLowerCase().includes(text),
    )
  );
}

export function isFiltered(filter: LogFilter): boolean {
  return Object.values(filter).some((value) => value.trim() !== '');
}
