// Every page of a limit/offset listing, one request after another. Sequential on purpose: the
// core's rate limiter queues whatever it cannot send yet, so pacing happens there;
// one request at a time keeps the progress honest and leaves room for other screens' calls.

export interface PageProgress {
  /** Rows received so far (after removing duplicates). */
  fetched: number;
  /** The listing's size as last reported by the service. */
  total: number;
  pagesDone: number;
  pageCount: number;
}

export interface FetchAllOptions<T> {
  fetchPage(offset: number, limit: number): Promise<{ items: T[]; total: number }>;
  /** Rows can move between pages while we read (new conversations push older ones down): keep each once. */
  idOf(item: T): string;
  pageSize?: number;
  signal?: AbortSignal;
  onProgress?(progress: PageProgress): void;
}

export class FetchCancelled extends Error {
  readonly code = 'CANCELLED';
  constructor() {
    super('Cancelled before every page arrived.');
    this.name = 'FetchCancelled';
  }
}

/** The service's largest page (spec §4: limit 1-100), so an export costs as few requests as possible. */
export const MAX_PAGE = 100;

export async function fetchAllPages<T>(options: FetchAllOptions<T>): Promise<T[]> {
  const limit = options.pageSize ?? MAX_PAGE;
  const seen = new Set<string>();
  const rows: T[] = [];
  let offset = 0;
  let total = Infinity;
  let pagesDone = 0;
  while (offset < total) {
    if (options.signal?.aborted) throw new FetchCancelled();
    const page = await options.fetchPage(offset, limit);
    if (options.signal?.aborted) throw new FetchCancelled();
    total = page.total;
    pagesDone += 1;
    for (const item of page.items) {
      const id = options.idOf(item);
      if (seen.has(id)) continue;
      seen.add(id);
      rows.push(item);
    }
    options.onProgress?.({
      fetched: rows.length,
      total,
      pagesDone,
      pageCount: Math.max(pagesDone, Math.ceil(total / limit)),
    });
    // A short page means the listing shrank under us: nothing lies beyond it.
    if (page.items.length < limit) break;
    offset += limit;
  }
  return rows;
}
