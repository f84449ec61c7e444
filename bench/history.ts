// History figures for `npm run bench` (docs/performance.md): the empty history beside 10,000 and
// 100,000 recorded sessions (4–20 messages each, about 1,000,000 messages at 100,000), generated
// once through the store's own API into a data folder per size, then measured RUNS times side by
// side. For each: the sessions list's first page and the host's memory after a fresh start, search
// p95 over every message, the longest page task while the Playground's list shows and scrolls in
// Chromium; and an append to a 1,000-message session beside one to a 1-message session.
// BENCH_HISTORY_SESSIONS="10000,100000" chooses the sizes, BENCH_HISTORY_RUNS how many runs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMBEDDED_MOCK_PROFILE_ID } from '../electron/core/profiles';
import { TranscriptStore, type TranscriptRef } from '../electron/core/transcript-store';
import { findChromium } from '../scripts/find-chromium.mjs';
import { launchChromium } from './console-page';
import type { Figure } from './core';
import { MORE_PAGES as MORE, measureSessionsList, type SessionsListTasks } from './history-browser';
import { median } from './timing';

const SIZES = (process.env.BENCH_HISTORY_SESSIONS ?? '10000,100000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_HISTORY_RUNS ?? 5);
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

/** Where the console keeps the history in a data folder. */
const historyFolder = (dataDir: string): string => join(dataDir, 'transcripts');

/**
 * Records `sessions` sessions of 4–20 messages each in the Embedded mock's profile of `dataDir`, the
 * one the console shows first; returns how many messages and how long it took.
 */
async function generate(dataDir: string, sessions: number): Promise<{ messages: number; ms: number }> {
  const store = new TranscriptStore(historyFolder(dataDir));
  const next = random(sessions);
  const t0 = performance.now();
  let messages = 0;
  const start = Date.parse('2026-01-01T00:00:00Z');
  for (let s = 0; s < sessions;) {
    const batch: Parameters<TranscriptStore['appendAll']>[0] = [];
    for (const end = Math.min(sessions, s + 500); s < end; s++) {
      const ref: TranscriptRef = { profileId: EMBEDDED_MOCK_PROFILE_ID, kind: 'session', id: `s${s}` };
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

function startOnce(dataDir: string): { firstPageMs: number; rss: number; heapUsed: number } {
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', 'bench/history-host.ts', historyFolder(dataDir)],
    { encoding: 'utf8' },
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

function searchP95(dataDir: string): number {
  const store = new TranscriptStore(historyFolder(dataDir));
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

interface Measured {
  firstPageMs: number;
  rssMb: number;
  searchP95Ms?: number;
  list?: SessionsListTasks;
}

interface Size {
  sessions: number;
  dataDir: string;
  messages: number;
  generatedMs: number;
  runs: Measured[];
}

const ms = (value: number): string => `${value.toFixed(1)} ms`;
const task = (value: number): string => (value > 0 ? `${Math.round(value)} ms` : '< 50 ms');
/** The figure's median across runs, and every run's own in the note. */
function across(runs: number[], show: (value: number) => string): { value: string; each: string } {
  return { value: show(median(runs)), each: runs.map(show).join(', ') };
}

export async function historyFigures(): Promise<Figure[]> {
  const sizes: Size[] = [];
  const executablePath = await findChromium();
  const browser = executablePath ? await launchChromium(executablePath) : undefined;
  try {
    for (const sessions of [0, ...SIZES]) {
      const dataDir = mkdtempSync(join(tmpdir(), 'agent-console-bench-history-'));
      const made = sessions > 0 ? await generate(dataDir, sessions) : { messages: 0, ms: 0 };
      sizes.push({ sessions, dataDir, messages: made.messages, generatedMs: made.ms, runs: [] });
    }
    const appends: { long: number; short: number }[] = [];
    for (let run = 0; run < RUNS; run++) {
      for (const size of sizes) {
        size.runs.push({
          ...starts(size.dataDir),
          ...(size.sessions > 0 ? { searchP95Ms: searchP95(size.dataDir) } : {}),
          ...(browser ? { list: await measureSessionsList(browser, size.dataDir) } : {}),
        });
      }
      const folder = mkdtempSync(join(tmpdir(), 'agent-console-bench-history-'));
      try {
        appends.push({ long: await appendMs(folder, 1000), short: await appendMs(folder, 1) });
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    }
    return [...sizes.flatMap((size) => sizeFigures(size, sizes[0] as Size)), appendFigure(appends)];
  } finally {
    await browser?.close();
    for (const size of sizes) rmSync(size.dataDir, { recursive: true, force: true });
  }
}

function sizeFigures(size: Size, empty: Size): Figure[] {
  const name = size.sessions ? `${size.sessions.toLocaleString('en-US')} sessions` : 'empty';
  const runs = `${size.runs.length} runs`;
  const pairs = size.runs.map((r, i) => ({ r, base: empty.runs[i] as Measured }));
  const page = size.sessions
    ? across(
        pairs.map(({ r, base }) => r.firstPageMs / base.firstPageMs),
        (v) => `${v.toFixed(2)}× empty`,
      )
    : across(
        size.runs.map((r) => r.firstPageMs),
        ms,
      );
  const memory = size.sessions
    ? across(
        pairs.map(({ r, base }) => r.rssMb / base.rssMb),
        (v) => `${v.toFixed(2)}× empty`,
      )
    : across(
        size.runs.map((r) => r.rssMb),
        (v) => `${v.toFixed(0)} MB`,
      );
  const figures: Figure[] = [
    {
      figure: `History: sessions list first page, ${name}`,
      value: page.value,
      note: `fresh process, median of ${STARTS} starts a run; ${runs}: ${page.each}${size.sessions ? `; ${size.messages.toLocaleString('en-US')} messages generated in ${(size.generatedMs / 1000).toFixed(0)} s` : ''}`,
    },
    {
      figure: `History: host memory after start, ${name}`,
      value: memory.value,
      note: `${runs}: ${memory.each}`,
    },
  ];
  if (size.sessions) {
    const search = across(
      size.runs.map((r) => r.searchP95Ms ?? 0),
      ms,
    );
    figures.push({
      figure: `History: search p95 over ${size.messages.toLocaleString('en-US')} messages`,
      value: search.value,
      note: `${SEARCHES} searches a run (words and an order number, a phrase and a prefix), 50 hits each at most; ${runs}: ${search.each}`,
    });
  }
  const lists = size.runs.flatMap((r) => (r.list ? [r.list] : []));
  if (lists.length > 0) {
    const phase = (pick: (l: SessionsListTasks) => number) => across(lists.map(pick), task);
    const start = phase((l) => l.startLongestMs);
    const shows = phase((l) => l.showLongestMs);
    const more = phase((l) => l.moreLongestMs);
    const scrolls = phase((l) => l.scrollLongestMs);
    figures.push({
      figure: `History: longest page task, Playground sessions list, ${name}`,
      value: `${shows.value} shown, ${more.value} paged, ${scrolls.value} flung`,
      note: `Chromium through the web host, ${runs}: shown again from another screen ${shows.each}; ${MORE} older pages shown ${more.each}; ${lists[0]?.rows ?? 0} sessions flung ${scrolls.each}; the console's start until the list shows (${
        across(
          lists.map((l) => l.showMs),
          (v) => `${Math.round(v)} ms`,
        ).value
      }): ${start.each}; machine load ${loadavg()[0]?.toFixed(1)}`,
    });
  }
  return figures;
}

function appendFigure(appends: { long: number; short: number }[]): Figure {
  const long = across(
    appends.map((a) => a.long),
    (v) => `${v.toFixed(2)} ms`,
  );
  const ratios = across(
    appends.map((a) => a.long / a.short),
    (v) => `${v.toFixed(2)}×`,
  );
  return {
    figure: 'History: append to a 1,000-message session',
    value: `${long.value} (${ratios.value} a 1-message one)`,
    note: `median of 100 appends a run, each committed and flushed (synchronous=FULL); ${appends.length} runs: ${ratios.each}; 1-message session: ${
      across(
        appends.map((a) => a.short),
        (v) => `${v.toFixed(2)} ms`,
      ).each
    }`,
  };
}
