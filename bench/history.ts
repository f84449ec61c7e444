// History figures for `npm run bench` (docs/performance.md): the empty history beside 10,000 and
// 100,000 recorded sessions (4–20 messages each, about 1,000,000 messages at 100,000), generated
// through the store's own API. For each: the sessions list's first page and the host's memory after
// a fresh start, search p95 over every message; and an append to a 1,000-message session beside one
// to a 1-message session. BENCH_HISTORY_SESSIONS="10000,100000" chooses the sizes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TranscriptStore, type TranscriptRef } from '../electron/core/transcript-store';
import type { Figure } from './core';
import { median } from './timing';

const SIZES = (process.env.BENCH_HISTORY_SESSIONS ?? '10000,100000').split(',').map(Number);
const STARTS = 5;
const SEARCHES = 200;
const WORDS =
  'order refund parcel invoice address delivery payment account password blue kettle lamp chair ' +
  'monday tuesday late broken missing wrong double charged transfer card receipt warranty return';
const VOCABULARY = WORDS.split(' ');

/** A deterministic stream of numbers, so each run generates the same history. */
function random(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

function sentence(next: () => number): string {
  const words = Array.from(
    { length: 8 + Math.floor(next() * 16) },
    () => VOCABULARY[Math.floor(next() * VOCABULARY.length)],
  );
  return `${words.join(' ')} order ${1000 + Math.floor(next() * 9000)}.`;
}

/** Records `sessions` sessions of 4–20 messages each; returns how many messages and how long it took. */
async function generate(folder: string, sessions: number): Promise<{ messages: number; ms: number }> {
  const store = new TranscriptStore(folder);
  const next = random(sessions);
  const t0 = performance.now();
  let messages = 0;
  const start = Date.parse('2026-01-01T00:00:00Z');
  for (let s = 0; s < sessions;) {
    const batch: Parameters<TranscriptStore['appendAll']>[0] = [];
    for (const end = Math.min(sessions, s + 500); s < end; s++) {
      const ref: TranscriptRef = { profileId: 'bench', kind: 'session', id: `s${s}` };
      const init = { agent: `agent${s % 7}`, knownFrom: 'start' } as const;
      const count = 4 + Math.floor(next() * 17);
      for (let m = 0; m < count; m++) {
        const at = new Date(start + s * 300_000 + m * 5_000).toISOString();
        batch.push({
          ref,
          message: { role: m % 2 ? 'agent' : 'user', content: sentence(next), status: 'complete', at },
          init,
        });
      }
      messages += count;
    }
    await store.appendAll(batch);
  }
  store.close();
  return { messages, ms: performance.now() - t0 };
}

function startOnce(folder: string): { firstPageMs: number; rss: number; heapUsed: number } {
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', 'bench/history-host.ts', folder],
    {
      encoding: 'utf8',
    },
  );
  return JSON.parse(out) as { firstPageMs: number; rss: number; heapUsed: number };
}

function starts(folder: string): { firstPageMs: number; rssMb: number } {
  const runs = Array.from({ length: STARTS }, () => startOnce(folder));
  return {
    firstPageMs: median(runs.map((r) => r.firstPageMs)),
    rssMb: median(runs.map((r) => r.rss)) / 1_048_576,
  };
}

function searchP95(folder: string): number {
  const store = new TranscriptStore(folder);
  const next = random(7);
  const times: number[] = [];
  for (let i = 0; i < SEARCHES; i++) {
    const a = VOCABULARY[Math.floor(next() * VOCABULARY.length)] as string;
    const text = i % 2 ? `${a} ${1000 + Math.floor(next() * 9000)}` : `"${a} order" ${a.slice(0, 3)}*`;
    const t0 = performance.now();
    store.search({ text, limit: 50 });
    times.push(performance.now() - t0);
  }
  store.close();
  times.sort((x, y) => x - y);
  return times[Math.floor(times.length * 0.95)] as number;
}

/** Median time of one append (committed and flushed) to a session of `length` messages. */
async function appendMs(folder: string, length: number): Promise<number> {
  const store = new TranscriptStore(folder);
  const ref: TranscriptRef = { profileId: 'bench', kind: 'session', id: `long${length}` };
  const init = { agent: 'echo', knownFrom: 'start' } as const;
  await store.appendAll(
    Array.from({ length }, (_, i) => ({
      ref,
      message: { role: 'user', content: `m${i}`, status: 'complete' },
      init,
    })),
  );
  const times: number[] = [];
  for (let i = 0; i < 100; i++) {
    const t0 = performance.now();
    await store.append(ref, { role: 'agent', content: `reply ${i}`, status: 'complete' });
    times.push(performance.now() - t0);
  }
  store.close();
  return median(times);
}

export async function historyFigures(): Promise<Figure[]> {
  const figures: Figure[] = [];
  const empty = mkdtempSync(join(tmpdir(), 'agent-console-bench-history-'));
  try {
    const base = starts(empty);
    figures.push({
      figure: 'History: sessions list first page, empty',
      value: `${base.firstPageMs.toFixed(1)} ms`,
      note: `fresh process, median of ${STARTS}; host memory after start ${base.rssMb.toFixed(0)} MB`,
    });
    for (const size of SIZES) {
      const folder = mkdtempSync(join(tmpdir(), 'agent-console-bench-history-'));
      try {
        const made = await generate(folder, size);
        const at = starts(folder);
        figures.push(
          {
            figure: `History: sessions list first page, ${size.toLocaleString('en-US')} sessions`,
            value: `${at.firstPageMs.toFixed(1)} ms (${(at.firstPageMs / base.firstPageMs).toFixed(2)}× empty)`,
            note: `${made.messages.toLocaleString('en-US')} messages generated in ${(made.ms / 1000).toFixed(1)} s; host memory ${at.rssMb.toFixed(0)} MB (${(at.rssMb / base.rssMb).toFixed(2)}× empty)`,
          },
          {
            figure: `History: search p95 over ${made.messages.toLocaleString('en-US')} messages`,
            value: `${searchP95(folder).toFixed(1)} ms`,
            note: `${SEARCHES} searches (words and an order number, a phrase and a prefix), 50 hits each at most`,
          },
        );
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    }
    const long = await appendMs(empty, 1000);
    const short = await appendMs(empty, 1);
    figures.push({
      figure: 'History: append to a 1,000-message session',
      value: `${long.toFixed(2)} ms (${(long / short).toFixed(2)}× a 1-message one)`,
      note: `median of 100 appends, each committed and flushed (synchronous=FULL); 1-message session: ${short.toFixed(2)} ms`,
    });
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
  return figures;
}
