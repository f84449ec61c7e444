// The Playground's sessions list in Chromium through the web host, on a data folder holding a
// generated history (bench/history.ts): the longest main-thread task (Long Tasks API) of the
// console's start until the list shows, while it shows again (back from another screen), while
// older sessions are shown a page at a time, and while the list is flung from top to bottom and
// back (goal: no task over 50 ms, docs/performance.md).
import type { Browser, Page } from '@playwright/test';
import { openBenchConsole } from './console-page';

/** Pages of older sessions asked for before the fling: 11 pages of 50 in the list. */
export const MORE_PAGES = 10;
const FRAMES = 120;

/** Runs in the page before the app, so the tasks of its start are seen too. */
const OBSERVE = `(() => {
  window.benchLongTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.benchLongTasks.push(entry.duration);
  }).observe({ type: 'longtask', buffered: true });
})()`;

const TAKE_TASKS = `(() => { const t = window.benchLongTasks; window.benchLongTasks = []; return t; })()`;

/** Down and up again, FRAMES frames each way. A string: tsx's helpers are not in the page. */
const FLING = `(async () => {
  const el = document.querySelector('nav.pg-sidebar');
  if (!el) throw new Error('No sessions list to scroll.');
  for (const down of [true, false]) {
    const step = ((el.scrollHeight - el.clientHeight) / ${FRAMES}) * (down ? 1 : -1);
    await new Promise((done) => {
      let n = 0;
      function tick() {
        el.scrollTop += step;
        if (++n < ${FRAMES}) requestAnimationFrame(tick);
        else done();
      }
      requestAnimationFrame(tick);
    });
  }
  return document.querySelectorAll('nav.pg-sidebar li').length;
})()`;

export interface SessionsListTasks {
  /** From the page's load to the list (or its empty state) on screen, ms. */
  showMs: number;
  /** The longest task of the console's start, until the list shows. */
  startLongestMs: number;
  /** The longest task while the list is shown again (back from another screen). */
  showLongestMs: number;
  /** The longest task while older sessions are shown, a page at a time. */
  moreLongestMs: number;
  /** The longest task while the list is flung from top to bottom and back. */
  scrollLongestMs: number;
  /** Sessions in the list when it was flung. */
  rows: number;
}

/** The longest task seen since the last call, 0 when none reached 50 ms. */
async function takeLongest(page: Page): Promise<number> {
  // A task is reported a moment after it ends.
  await page.waitForTimeout(300);
  return Math.max(0, ...((await page.evaluate(TAKE_TASKS)) as number[]));
}

/** Opens the console on `dataDir` in a new page of `browser` and measures the sessions list. */
export async function measureSessionsList(browser: Browser, dataDir: string): Promise<SessionsListTasks> {
  const app = await openBenchConsole(dataDir);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.addInitScript(OBSERVE);
    const sidebar = page.getByRole('navigation', { name: 'Sessions' });
    const shown = () => sidebar.locator('li, .pg-sidebar-empty').first().waitFor({ timeout: 60_000 });
    const t0 = performance.now();
    await page.goto(app.host.url);
    await shown();
    const showMs = performance.now() - t0;
    const startLongestMs = await takeLongest(page);
    const link = (name: string) =>
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
    await link('Agents').click();
    await page.getByRole('table', { name: 'Agents' }).waitFor();
    await takeLongest(page);
    await link('Playground').click();
    await shown();
    const showLongestMs = await takeLongest(page);
    const more = sidebar.getByRole('button', { name: /^Show older sessions/ });
    for (let i = 0; i < MORE_PAGES && (await more.isVisible()); i++) {
      const before = await sidebar.locator('li').count();
      await more.click();
      await page.waitForFunction((n) => document.querySelectorAll('nav.pg-sidebar li').length > n, before);
    }
    const moreLongestMs = await takeLongest(page);
    const rows = (await page.evaluate(FLING)) as number;
    const scrollLongestMs = await takeLongest(page);
    return { showMs, startLongestMs, showLongestMs, moreLongestMs, scrollLongestMs, rows };
  } finally {
    await page.close();
    await app.close();
  }
}
