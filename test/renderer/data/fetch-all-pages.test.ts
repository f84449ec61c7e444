import { describe, expect, it } from 'vitest';
import { FetchCancelled, fetchAllPages, type PageProgress } from '../../../renderer/data/fetch-all-pages';

function listing(size: number) {
  const all = Array.from({ length: size }, (_, i) => ({ id: `r${i}` }));
  const calls: { offset: number; limit: number }[] = [];
  return {
    all,
    calls,
    fetchPage: async (offset: number, limit: number) => {
      calls.push({ offset, limit });
      return { items: all.slice(offset, offset + limit), total: all.length };
    },
  };
}

describe('fetchAllPages', () => {
  it('reads every page once, at the largest page size, reporting progress', async () => {
    const l = listing(250);
    const progress: PageProgress[] = [];
    const rows = await fetchAllPages({
      fetchPage: l.fetchPage,
      idOf: (r) => r.id,
      onProgress: (p) => progress.push(p),
    });
    expect(rows).toEqual(l.all);
    expect(l.calls).toEqual([
      { offset: 0, limit: 100 },
      { offset: 100, limit: 100 },
      { offset: 200, limit: 100 },
    ]);
    expect(progress.map((p) => [p.pagesDone, p.pageCount, p.fetched, p.total])).toEqual([
      [1, 3, 100, 250],
      [2, 3, 200, 250],
      [3, 3, 250, 250],
    ]);
  });

  it('asks once for an empty listing and once for an exact multiple plus the empty check', async () => {
    const empty = listing(0);
    expect(await fetchAllPages({ fetchPage: empty.fetchPage, idOf: (r) => r.id })).toEqual([]);
    expect(empty.calls).toHaveLength(1);
    const exact = listing(200);
    expect(await fetchAllPages({ fetchPage: exact.fetchPage, idOf: (r) => r.id })).toHaveLength(200);
    expect(exact.calls).toHaveLength(2);
  });

  it('keeps each row once when rows shift between pages while reading', async () => {
    const rows = Array.from({ length: 150 }, (_, i) => ({ id: `r${i}` }));
    let first = true;
    const fetchPage = async (offset: number, limit: number) => {
      if (!first) rows.unshift({ id: 'new' }); // a new conversation arrives between the two pages
      first = false;
      return { items: rows.slice(offset, offset + limit), total: rows.length };
    };
    const got = await fetchAllPages({ fetchPage, idOf: (r) => r.id });
    expect(new Set(got.map((r) => r.id)).size).toBe(got.length);
    expect(got).toHaveLength(150);
  });

  it('stops between pages when cancelled', async () => {
    const l = listing(500);
    const controller = new AbortController();
    const reading = fetchAllPages({
      fetchPage: async (offset, limit) => {
        if (offset === 100) controller.abort();
        return l.fetchPage(offset, limit);
      },
      idOf: (r) => r.id,
      signal: controller.signal,
    });
    await expect(reading).rejects.toBeInstanceOf(FetchCancelled);
    expect(l.calls).toHaveLength(2);
  });

  it('passes a failed page on', async () => {
    const failure = new Error('429');
    await expect(
      fetchAllPages({
        fetchPage: async () => {
          throw failure;
        },
        idOf: (r: { id: string }) => r.id,
      }),
    ).rejects.toBe(failure);
  });
});
