// The playground's memory over a long session: 200 long replies from the storyteller in
// one session, in Chromium through the web host, then the session closed ("New session"). The JS
// heap after a forced GC is compared with the same page before the session: a closed session's
// replies (their stream buffers, chunks and timings) must not stay behind.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Page } from '@playwright/test';
import { buildRenderer } from '../scripts/build.mjs';
import { findChromium } from '../scripts/find-chromium.mjs';
import { launchChromium, openBenchConsole } from './console-page';
import type { Figure } from './core';

const REPLIES = Number(process.env.BENCH_SESSION_REPLIES ?? 200);
/** 800 chunks of 9 words: about 42 KB a reply, 8 MB of text over the session. */
const CHUNKS = 800;
const WORDS_PER_CHUNK = 9;
const WARM_UP = 20;

const mb = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

interface Heap {
  /** V8's used heap, compiled code included. */
  used: number;
  /** What the page's own data holds: every heap node but compiled code and Blink's C++ objects. */
  data: number;
}

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
}

/** Sums a heap snapshot's self sizes, leaving out compiled code and native (Blink) objects. */
function dataBytes(json: string): number {
  const { snapshot, nodes } = JSON.parse(json) as Snapshot;
  const fields = snapshot.meta.node_fields;
  const types = snapshot.meta.node_types[0];
  const typeAt = fields.indexOf('type');
  const sizeAt = fields.indexOf('self_size');
  let bytes = 0;
  for (let i = 0; i < nodes.length; i += fields.length) {
    const type = types[nodes[i + typeAt] as number];
    if (type !== 'code' && type !== 'native') bytes += nodes[i + sizeAt] as number;
  }
  return bytes;
}

async function heapAfterGc(page: Page, snapshot = true): Promise<Heap> {
  const cdp = await page.context().newCDPSession(page);
  // Twice: the first pass may only queue finalisers the second one frees.
  await cdp.send('HeapProfiler.collectGarbage');
  await page.waitForTimeout(200);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  if (!snapshot) {
    await cdp.detach();
    return { used: usedSize, data: Number.NaN };
  }
  const chunks: string[] = [];
  cdp.on('HeapProfiler.addHeapSnapshotChunk', (event) => chunks.push(event.chunk));
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  await cdp.detach();
  return { used: usedSize, data: dataBytes(chunks.join('')) };
}

async function sendAndWait(page: Page, index: number): Promise<number> {
  await page.getByRole('textbox', { name: 'Message' }).fill(`Story number ${index + 1}, please.`);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const reply = page.getByRole('article', { name: 'Reply from storyteller' }).nth(index);
  await reply.and(page.locator('[data-status="done"]')).waitFor({ timeout: 60_000 });
  return Number(await reply.getByTestId('reply-text').first().getAttribute('data-rendered-chars'));
}

export async function sessionMemoryFigure(): Promise<Figure> {
  const figure = `playground: heap after ${REPLIES} long replies, session closed`;
  const executablePath = await findChromium();
  if (!executablePath) return { figure, value: 'n/a', note: 'no Chromium found' };
  if (!existsSync(resolve('out/renderer/index.html'))) await buildRenderer();
  const app = await openBenchConsole();
  const { core, host } = app;
  const browser = await launchChromium(executablePath);
  try {
    const control = core.mock?.control;
    if (!control) return { figure, value: 'n/a', note: 'no embedded mock' };
    control.setAgent('storyteller', {
      chunkCount: CHUNKS,
      wordsPerChunk: WORDS_PER_CHUNK,
      chunkDelayMs: 0,
      latencyMs: 0,
    });
    // The highest tier, so the run measures memory, not the rate limit's waits.
    for (const key of control.state().keys) if (!key.revoked) control.updateKey(key.id, { tier: 300 });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(host.url);
    await page.locator('[data-app-state="ready"]').waitFor();
    const picker = page.getByRole('combobox', { name: 'Agent' });
    await picker.locator('option[value="storyteller"]').waitFor({ state: 'attached' });
    await picker.selectOption('storyteller');
    const newSession = page.getByRole('button', { name: 'New session' });
    // Warm up in a session of its own: every chunk the page loads on a reply (Markdown, the
    // inspector) is loaded and the hot paths are compiled before the baseline, so the figure is about
    // replies kept, not code loaded or JIT-compiled (a heap snapshot diff after a cold baseline was
    // mostly V8 code objects and Blink's per-request timing records).
    for (let i = 0; i < WARM_UP; i++) await sendAndWait(page, i);
    await newSession.click();
    const baseline = await heapAfterGc(page);
    let chars = 0;
    for (let i = 0; i < REPLIES; i++) chars += await sendAndWait(page, i);
    const open = await heapAfterGc(page, false); // its snapshot would be hundreds of MB
    await newSession.click();
    await page
      .getByRole('article', { name: 'Reply from storyteller' })
      .first()
      .waitFor({ state: 'detached' });
    const closed = await heapAfterGc(page);
    // The Log still lists the 200 calls (without bodies; bounded at 1,000): that is the Log's, not
    // the session's. Cleared, what is left is what the closed session itself kept.
    core.requestLog.clear();
    await page.waitForTimeout(200);
    const withoutLog = await heapAfterGc(page);
    const ratio = closed.data / baseline.data;
    return {
      figure,
      value: `${mb(closed.data)} (${ratio.toFixed(2)}× baseline)`,
      note:
        `page data (JS objects and strings) after a GC (goal ≤ 1.10×): baseline ${mb(baseline.data)} after ${WARM_UP} warm-up replies, ` +
        `V8 heap ${mb(open.used)} with the session open; ${REPLIES} replies, ${mb(chars)} of text; ` +
        `${(withoutLog.data / baseline.data).toFixed(2)}× once the Log's ${REPLIES} records are cleared too; ` +
        `the whole V8 heap, with the code compiled meanwhile, ${(closed.used / baseline.used).toFixed(2)}×`,
    };
  } finally {
    await browser.close();
    await app.close();
  }
}
