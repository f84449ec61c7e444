// Every screen, as a user sees it at 1280×800, 1024×768 and the window's smallest size, light and
// dark: nothing clipped, covered or cut short (layout-check.ts), and no serious or critical
// accessibility violation (axe), loaded with data, empty (a fresh data folder) and in error
// (the mock's "plan-expired" chaos: every request refused, and the header's chaos warning on).
import { copyFileSync, cpSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { MIN_SIZE } from '../../electron/shell/window-bounds';
import { ACCEPTED_AXE_RULES } from './axe-accepted';
import { sendToAll } from './compare-steps';
import { bridgeCall, expect, screenshotPath, test } from './fixtures';
import { layoutProblems } from './layout-check';
import { chooseAgent, messageBox, nav } from './playground-steps';

const SIZES = [{ width: 1280, height: 800 }, { width: 1024, height: 768 }, MIN_SIZE] as const;
const THEMES = ['light', 'dark'] as const;
/** What changes with the theme: in the dark, axe runs only these again. */
const THEME_RULES = ['color-contrast', 'link-in-text-block'];

/** The screens in the navigation, by name, in order. */
async function screenNames(app: Page): Promise<string[]> {
  return app.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents();
}

/** Whether the header's pieces take more than one line (they must not from 1280 px wide). */
function headerWraps(app: Page): Promise<boolean> {
  return app.getByRole('banner').evaluate((header) => {
    // In the flow only: the skip link waits above the page until focused.
    const boxes = [...header.children]
      .filter((c) => getComputedStyle(c).position !== 'absolute')
      .map((c) => c.getBoundingClientRect())
      .filter((b) => b.height > 0);
    const firstLineEnds = Math.min(...boxes.map((b) => b.bottom));
    return boxes.some((b) => b.top >= firstLineEnds);
  });
}

/** Goes to `name` and waits for its heading and its first data. */
async function open(app: Page, name: string): Promise<void> {
  await nav(app, name).click();
  const main = app.getByRole('main', { name });
  await expect(main.getByRole('heading').first()).toBeVisible();
  await expect(main.getByText(/^Loading\b/)).toHaveCount(0);
  // The screen's first replies, and their render, before judging it.
  await app.waitForLoadState('networkidle').catch(() => undefined);
}

/**
 * The axe violations that fail the audit, one line each: every serious or critical one, and a
 * minor or moderate one unless axe-accepted.ts lists its rule with a reason. `only` narrows the
 * rules (the second theme needs only the colour rules run again).
 */
async function axeProblems(app: Page, only?: readonly string[]): Promise<string[]> {
  // Only what failed: the passes of every node are most of axe's time and reply.
  const builder = new AxeBuilder({ page: app }).options({ resultTypes: ['violations'] });
  if (only) builder.withRules([...only]);
  const accepted = new Set(ACCEPTED_AXE_RULES.map((r) => r.rule));
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || !accepted.has(v.id))
    .flatMap((v) =>
      v.nodes.map(
        (n) =>
          `${v.id} (${v.impact}): ${n.target.join(' ')}: ${n.failureSummary?.split('\n')[1]?.trim() ?? v.help}`,
      ),
    );
}

/** A screen as first shown, or a view of it beyond that: shown by `show`, left by `hide`. */
interface View {
  name: string;
  screen: string;
  show?(app: Page): Promise<void>;
  hide?(app: Page): Promise<void>;
}

const slug = (name: string) => name.toLowerCase().replaceAll(' ', '-');

interface Audit {
  /** Screen views laid out and checked (screens and views × sizes × themes). */
  checked: number;
  axeRuns: number;
  problems: string[];
}

/** Each screen at each size and theme: the layout always, axe when `axe` holds for that size. */
async function auditScreens(
  app: Page,
  state: string,
  sizes: readonly { width: number; height: number }[],
  options: { axeAt?: number; views?: readonly View[]; screenshots?: boolean } = {},
): Promise<Audit> {
  const audit: Audit = { checked: 0, axeRuns: 0, problems: [] };
  const names = await screenNames(app);
  for (const size of sizes) {
    await app.setViewportSize(size);
    for (const theme of THEMES) {
      await app.emulateMedia({ colorScheme: theme });
      const views: View[] = [...names.map((name) => ({ name, screen: name })), ...(options.views ?? [])];
      for (const view of views) {
        await open(app, view.screen);
        await view.show?.(app);
        const where = `${state} ${view.name} ${size.width}×${size.height} ${theme}`;
        audit.problems.push(...(await layoutProblems(app)).map((p) => `${where}: ${p}`));
        if (size.width >= 1280 && (await headerWraps(app)))
          audit.problems.push(`${where}: the header wraps onto a second line`);
        if (options.axeAt === size.width) audit.axeRuns++;
        if (options.axeAt === size.width)
          audit.problems.push(
            ...(await axeProblems(app, theme === 'dark' ? THEME_RULES : undefined)).map(
              (p) => `${where}: ${p}`,
            ),
          );
        if (size.width === 1280 && options.screenshots)
          await app.screenshot({ path: screenshotPath(`audit-${state}-${slug(view.name)}-${theme}`) });
        await view.hide?.(app);
        audit.checked++;
      }
    }
  }
  await app.emulateMedia({ colorScheme: 'light' });
  return audit;
}

let receiver: Server;
let receiverUrl: string;
test.beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  const address = receiver.address();
  receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;
});
test.afterAll(() => new Promise((done) => receiver.close(done)));

/** Beyond each screen's first look: a request opened, three agents compared, a failing cell. */
const LOADED_VIEWS: readonly View[] = [
  {
    name: 'Log request',
    screen: 'Log',
    show: async (app) => {
      await app.getByRole('table', { name: 'Requests' }).getByRole('row').nth(1).click();
      await expect(app.getByRole('button', { name: 'Copy as curl' })).toBeVisible();
    },
  },
  {
    name: 'Playground compare',
    screen: 'Playground',
    show: async (app) => {
      await app.getByRole('radio', { name: 'Compare' }).check();
      await expect(app.locator('article[data-status]')).toHaveCount(3);
    },
    hide: (app) => app.getByRole('radio', { name: 'Chat' }).check(),
  },
  {
    name: 'Tests cell',
    screen: 'Tests',
    show: async (app) => {
      await app.getByRole('button', { name: 'echo answers in French on echo: failed' }).click();
      await expect(app.getByRole('table', { name: 'Assertions' })).toBeVisible();
    },
  },
];

test('loaded: every screen at every size and theme, nothing clipped or cut short, no serious axe violation', async ({
  app,
  core,
  mock,
  home,
}) => {
  test.setTimeout(400_000);
  // Data on each screen: replies (and so the log, threads, conversations), three agents compared,
  // a monitor with a webhook, a key, a run of suites with a failing case.
  await core.vault.add({ name: 'staging', secret: mock.keys.tier30, sessionOnly: true });
  await core.monitors.add({
    name: 'Staging watch',
    profile: 'Embedded mock',
    newChannels: [{ kind: 'webhook', url: receiverUrl, format: 'json' }],
  });
  await nav(app, 'Playground').click();
  await sendToAll(app, ['echo', 'helpdesk', 'archivist'], 'Order 12345: where is it?');
  await expect(app.locator('article[data-status="done"], article[data-status="failed"]')).toHaveCount(3, {
    timeout: 30_000,
  });
  await app.getByRole('radio', { name: 'Chat' }).check();
  await chooseAgent(app, 'echo');
  await messageBox(app).fill('Order 12345: where is it?');
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(app.getByRole('article', { name: 'Reply from echo' })).toHaveAttribute('data-status', 'done');
  await open(app, 'Overview');
  const monitor = app.getByRole('row').filter({ hasText: 'Staging watch' });
  await monitor.getByRole('button', { name: 'Test notification' }).click();
  await expect(monitor.getByRole('status')).toBeVisible();
  const folder = mkdtempSync(join(home, 'agent-tests-'));
  cpSync('examples/agent-tests/echo.yaml', join(folder, 'echo.yaml'));
  copyFileSync('examples/agent-tests/failing/deliberately-failing.yaml', join(folder, 'failing.yaml'));
  await open(app, 'Tests');
  await app.getByLabel('Folder of suite files').fill(folder);
  await app.getByRole('button', { name: 'Open', exact: true }).click();
  await app.getByRole('button', { name: 'Run all' }).click();
  await expect(app.getByTestId('run-progress')).toContainText(/· (passed|failed)/, { timeout: 60_000 });

  const audit = await auditScreens(app, 'loaded', SIZES, {
    axeAt: 1280,
    views: LOADED_VIEWS,
    screenshots: true,
  });
  console.log(`loaded: ${audit.checked} screen views checked, ${audit.axeRuns} axe runs`);
  expect(audit.problems).toEqual([]);
});

test('empty: a fresh data folder, every screen at 1280×800 light and dark', async ({ app }) => {
  test.setTimeout(300_000);
  const audit = await auditScreens(app, 'empty', [SIZES[0]], { axeAt: 1280 });
  console.log(`empty: ${audit.checked} screen views checked, ${audit.axeRuns} axe runs`);
  expect(audit.problems).toEqual([]);
});

test('error: every request refused (the mock\'s "plan-expired" chaos), every screen at 1280×800 light and dark', async ({
  app,
}) => {
  test.setTimeout(300_000);
  await bridgeCall(app, 'mock:chaos', { preset: 'plan-expired', on: true });
  await expect(app.getByTestId('chaos-badge')).toBeVisible();
  const audit = await auditScreens(app, 'error', [SIZES[0]], { axeAt: 1280 });
  console.log(`error: ${audit.checked} screen views checked, ${audit.axeRuns} axe runs`);
  expect(audit.problems).toEqual([]);
});
