// The Tests screen as a developer uses it: open a folder of suites (a copy of
// examples/agent-tests plus the deliberately failing example), run all and watch the grid fill,
// open a failing cell (expected/actual, the stream inspector), edit a suite on disk and see it
// picked up, save a playground reply as a case that then passes, and see a new failure against
// the previous run after an agent is switched to error on the Mock screen.
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Page } from '@playwright/test';
import { rememberSecret } from '../../electron/core/redact';
import { expect, screenshotLightAndDark, screenshotPath, test } from './fixtures';

let folder: string;
// In the web host's home folder: a typed folder must be inside it.
test.beforeEach(({ home }) => {
  folder = mkdtempSync(join(home, 'agent-tests-e2e-'));
  cpSync('examples/agent-tests', folder, { recursive: true });
  copyFileSync(
    'examples/agent-tests/failing/deliberately-failing.yaml',
    join(folder, 'deliberately-failing.yaml'),
  );
});
test.afterEach(() => rmSync(folder, { recursive: true, force: true }));

async function openTests(app: Page): Promise<void> {
  await app.getByRole('link', { name: 'Tests' }).click();
  await app.getByLabel('Folder of suite files').fill(folder);
  await app.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(app.getByRole('list', { name: 'Suites' })).toContainText('Echo replies');
}

const cells = (app: Page) => app.getByTestId('test-cell');

async function runFinished(app: Page): Promise<void> {
  await expect(app.getByTestId('run-progress')).toContainText(/· (passed|failed|cancelled)/, {
    timeout: 60_000,
  });
}

/** Switches echo to error on the Mock screen, then runs "Echo replies" again. */
async function rerunWithEchoInError(app: Page): Promise<void> {
  await app.getByRole('link', { name: 'Mock' }).click();
  await app.getByRole('combobox', { name: 'Status of echo' }).selectOption('error');
  await expect(app.getByRole('combobox', { name: 'Status of echo' })).toHaveValue('error');
  await app.getByRole('link', { name: 'Tests' }).click();
  await app.getByRole('button', { name: 'Run suite Echo replies' }).click();
  await runFinished(app);
}

test('run all: the grid fills live, a failing cell shows expected/actual and the inspector, edits are picked up', async ({
  app,
}) => {
  await openTests(app);
  await app.screenshot({ path: screenshotPath('tests-folder') });
  await app.getByRole('button', { name: 'Run all' }).click();
  // Live: a cell has finished while others (storyteller's paced stream takes seconds) have not.
  await expect(cells(app).and(app.locator('[data-state="passed"]')).first()).toBeVisible();
  const unfinished = await cells(app)
    .and(app.locator('[data-state="pending"], [data-state="running"]'))
    .count();
  expect(unfinished).toBeGreaterThan(0);
  await expect(app.getByTestId('run-progress')).not.toContainText('·');
  await app.screenshot({ path: screenshotPath('tests-running') });
  await runFinished(app);
  await expect(app.getByTestId('run-progress')).toContainText('· failed');
  await expect(cells(app).and(app.locator('[data-state="failed"]'))).toHaveCount(1);
  await expect(cells(app).and(app.locator('[data-state="pending"], [data-state="running"]'))).toHaveCount(0);

  await app.getByRole('button', { name: 'echo answers in French on echo: failed' }).click();
  const detail = app.getByRole('region', { name: 'Cell detail' });
  const failed = detail.getByRole('table', { name: 'Assertions' }).locator('tr[data-passed="false"]');
  await expect(failed).toContainText('contains');
  await expect(failed).toContainText('Bonjour');
  await expect(failed).toContainText('Echo: hello');
  const inspector = detail.getByRole('complementary', { name: 'Stream inspector' });
  await expect(inspector.getByTestId('chunk-count')).not.toHaveText('0');
  await inspector.getByRole('button', { name: 'Details' }).click();
  await expect(inspector.getByRole('list', { name: 'Frames' })).toContainText('[DONE]');
  await app.screenshot({ path: screenshotPath('tests-failing-cell'), fullPage: true });

  // An edit made in an editor: a case renamed and a broken file, picked up without a reload.
  const echo = join(folder, 'echo.yaml');
  writeFileSync(echo, readFileSync(echo, 'utf8').replace('says the message back', 'repeats what it is told'));
  writeFileSync(
    join(folder, 'typo.yaml'),
    'name: Typo\ncases:\n  - name: x\n    message: hi\n    assert:\n      - containz: hi\n',
  );
  const tree = app.getByRole('list', { name: 'Suites' });
  await expect(tree).toContainText('repeats what it is told');
  await expect(tree).not.toContainText('says the message back');
  await expect(app.getByRole('list', { name: 'Problems in typo.yaml' })).toContainText('typo.yaml:6');
  await expect(app.getByRole('list', { name: 'Problems in typo.yaml' })).toContainText('containz');
  await app.screenshot({ path: screenshotPath('tests-edited') });
});

test('a typed folder must be inside the home folder: a relative path starts there, one outside is refused in words', async ({
  app,
  home,
}) => {
  await app.getByRole('link', { name: 'Tests' }).click();
  const input = app.getByLabel('Folder of suite files');
  await expect(app.locator('#tests-folder-hint')).toHaveText(
    'A folder inside your home folder; a relative path (projects/agent-tests) starts there.',
  );
  const outside = mkdtempSync(join(tmpdir(), 'agent-tests-outside-'));
  try {
    cpSync('examples/agent-tests/echo.yaml', join(outside, 'echo.yaml'));
    await input.fill(outside);
    await app.getByRole('button', { name: 'Open', exact: true }).click();
    await expect(app.getByRole('alert')).toContainText(
      `Only a folder inside your home folder (${home}) can be opened by a typed path, and ${outside} is not`,
    );
    await expect(app.getByRole('list', { name: 'Suites' })).toHaveCount(0);
    await app.screenshot({ path: screenshotPath('tests-folder-refused') });
  } finally {
    rmSync(outside, { recursive: true, force: true });
  }
  // A declared value too short to be masked is said beside its suite.
  writeFileSync(
    join(folder, 'pin.yaml'),
    'name: Pin\nenv: [AGENT_CONSOLE_E2E_PIN]\ncases: [{ name: a, message: "{{env.AGENT_CONSOLE_E2E_PIN}}" }]\n',
  );
  process.env.AGENT_CONSOLE_E2E_PIN = '4711';
  try {
    await input.fill(basename(folder));
    await app.getByRole('button', { name: 'Open', exact: true }).click();
    await expect(app.getByRole('list', { name: 'Suites' })).toContainText('Echo replies');
    await expect(app.getByText(`Watching ${folder}`)).toBeVisible();
    await expect(app.getByRole('list', { name: 'Warnings for pin.yaml' })).toHaveText(
      'AGENT_CONSOLE_E2E_PIN is shorter than 8 characters, so it is not masked in output.',
    );
  } finally {
    delete process.env.AGENT_CONSOLE_E2E_PIN;
  }
});

test('"Save as test case" from a playground reply writes a case that then passes', async ({ app }) => {
  await openTests(app);
  await app.getByRole('link', { name: 'Playground' }).click();
  const picker = app.getByRole('combobox', { name: 'Agent' });
  await expect(picker.locator('option[value="echo"]')).toBeAttached();
  await picker.selectOption('echo');
  await app.getByRole('textbox', { name: 'Message' }).fill('good morning');
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  const reply = app.getByRole('article', { name: 'Reply from echo' }).first();
  await expect(reply).toHaveAttribute('data-status', 'done');
  await reply.getByRole('button', { name: 'Save as test case' }).click();
  const dialog = app.getByRole('dialog', { name: 'Save as test case' });
  // Only the suites that run against echo are offered, and a new file.
  const suiteFile = dialog.getByLabel(/Suite file in/);
  await expect(suiteFile.locator('option')).toHaveText([
    'deliberately-failing.yaml — Deliberately failing',
    'echo.yaml — Echo replies',
    'judged.yaml — Refund replies, judged',
    'limits.yaml — Message size limit',
    'New file…',
  ]);
  await suiteFile.selectOption('echo.yaml');
  await app.screenshot({ path: screenshotPath('tests-save-case') });
  await dialog.getByRole('button', { name: 'Save case' }).click();
  await expect(reply.getByRole('status')).toContainText('Saved “good morning” to echo.yaml');
  const text = readFileSync(join(folder, 'echo.yaml'), 'utf8');
  expect(text).toContain('# Echo repeats the message'); // the file's own comments are kept
  expect(text).toContain('contains: "Echo: good morning"');
  expect(text).toContain('completes: true');

  await app.getByRole('link', { name: 'Tests' }).click();
  await app.getByRole('button', { name: 'Run case good morning' }).click();
  await runFinished(app);
  await expect(app.getByRole('button', { name: 'good morning on echo: passed' })).toBeVisible();
});

test('"Save as test case" refuses a message that holds a secret, and says so in the dialog', async ({
  app,
}) => {
  await openTests(app);
  // A value the console keeps secret (as a suite's declared value is): the playground sends it,
  // masked in everything the console shows, and it must not be written into a suite file.
  const secret = `staging-password-${Date.now()}`;
  rememberSecret(secret);
  await app.getByRole('link', { name: 'Playground' }).click();
  const picker = app.getByRole('combobox', { name: 'Agent' });
  await expect(picker.locator('option[value="echo"]')).toBeAttached();
  await picker.selectOption('echo');
  await app.getByRole('textbox', { name: 'Message' }).fill(`log in with ${secret}`);
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  const reply = app.getByRole('article', { name: 'Reply from echo' }).first();
  await expect(reply).toHaveAttribute('data-status', 'done');
  const before = readFileSync(join(folder, 'echo.yaml'), 'utf8');
  await reply.getByRole('button', { name: 'Save as test case' }).click();
  const dialog = app.getByRole('dialog', { name: 'Save as test case' });
  await dialog.getByLabel(/Suite file in/).selectOption('echo.yaml');
  await dialog.getByRole('button', { name: 'Save case' }).click();
  await expect(dialog.getByRole('alert')).toContainText(
    'The message holds a secret this console keeps (an API key, a webhook URL or a suite’s declared value); it was not saved to the suite file.',
  );
  await app.screenshot({ path: screenshotPath('tests-save-case-refused') });
  expect(readFileSync(join(folder, 'echo.yaml'), 'utf8')).toBe(before);
});

test('the comparison with the previous run names a new failure after an agent is switched to error', async ({
  app,
}) => {
  await openTests(app);
  await app.getByRole('button', { name: 'Run suite Echo replies' }).click();
  await runFinished(app);
  await expect(app.getByText('First kept run of echo.yaml')).toBeVisible();

  await rerunWithEchoInError(app);
  const comparison = app.getByLabel('Compared with the previous run of echo.yaml');
  const newFailures = comparison.getByRole('list', { name: 'New failures' });
  await expect(newFailures.getByRole('listitem')).toHaveCount(6);
  await expect(newFailures.getByRole('listitem').first()).toHaveText(
    'says the message back [Embedded mock / echo]',
  );
  await expect(comparison.getByRole('list', { name: 'Fixed' })).toHaveCount(0);
  await app.screenshot({ path: screenshotPath('tests-new-failure'), fullPage: true });
});

test('the run history: two runs picked, the regression named, ↓ and k step through the changes, replies side by side', async ({
  app,
}) => {
  await openTests(app);
  const history = app.getByRole('region', { name: 'Run history' });
  await expect(history).toContainText('Every run is kept here');
  await app.getByRole('button', { name: 'Run suite Echo replies' }).click();
  await runFinished(app);

  await rerunWithEchoInError(app);

  const runs = history.getByRole('list', { name: 'Kept runs' }).getByRole('listitem');
  await expect(runs).toHaveCount(2);
  await expect(runs.first()).toContainText('0 passed, 6 failed');
  await expect(runs.last()).toContainText('6 passed, 0 failed');
  // The newest is compared with the one before it: picked as such.
  await expect(runs.first().getByRole('radio', { name: /^Compare:/ })).toBeChecked();
  await expect(runs.last().getByRole('radio', { name: /^Base:/ })).toBeChecked();
  await expect(history.getByRole('status')).toHaveText(
    '6 regressions, 0 new failures, 0 fixed, 0 slower, 0 faster',
  );
  const changes = history.getByRole('list', { name: /^Changes/ }).getByRole('button');
  await expect(changes).toHaveCount(6);
  await expect(changes.first()).toContainText('Regression');
  await expect(changes.first()).toContainText('says the message back');
  const change = history.getByLabel('The change');
  await expect(change).toContainText('passed, 1/1 passed');
  await expect(change).toContainText('failed, 0/1 passed');
  await expect(change.locator('.reply-diff del').first()).toBeVisible();

  await changes.first().focus();
  await app.keyboard.press('ArrowDown');
  await expect(changes.nth(1)).toBeFocused();
  await expect(changes.nth(1)).toHaveAttribute('aria-current', 'true');
  await app.keyboard.press('j');
  await expect(changes.nth(2)).toHaveAttribute('aria-current', 'true');
  await app.keyboard.press('k');
  await expect(changes.nth(1)).toHaveAttribute('aria-current', 'true');
  await expect(changes.first()).not.toHaveAttribute('aria-current', 'true');
  await history.scrollIntoViewIfNeeded();
  await screenshotLightAndDark(app, 'tests-run-history-diff');

  // Swapped: the older run compared with the newer as its base says the same cells were fixed.
  await runs
    .first()
    .getByRole('radio', { name: /^Base:/ })
    .check();
  await runs
    .last()
    .getByRole('radio', { name: /^Compare:/ })
    .check();
  await expect(history.getByRole('status')).toHaveText(
    '0 regressions, 0 new failures, 6 fixed, 0 slower, 0 faster',
  );
});

test.describe('in a dark desktop theme', () => {
  test.use({ colorScheme: 'dark' });
  test('the grid and a failing cell are legible', async ({ app }) => {
    await openTests(app);
    await app.getByRole('button', { name: 'Run suite Deliberately failing' }).click();
    await runFinished(app);
    await app.getByRole('button', { name: 'echo answers in French on echo: failed' }).click();
    await expect(app.getByRole('region', { name: 'Cell detail' })).toContainText('Bonjour');
    await app.screenshot({ path: screenshotPath('tests-failing-cell-dark'), fullPage: true });
  });
});

test('Run all with a broken suite file: it is one failing row with its file:line, the others run', async ({
  app,
}) => {
  rmSync(join(folder, 'deliberately-failing.yaml'));
  writeFileSync(
    join(folder, 'broken.yaml'),
    'name: Broken\ncases:\n  - name: x\n    message: hi\n    assert:\n      - containz: hi\n',
  );
  await openTests(app);
  await app.getByRole('button', { name: 'Run all' }).click();
  await runFinished(app);
  await expect(app.getByTestId('run-progress')).toContainText('· failed');
  const broken = app.getByTestId('broken-suite');
  await expect(broken).toHaveCount(1);
  await expect(broken).toContainText('broken.yaml does not load');
  await expect(broken.getByRole('list', { name: 'Problems in broken.yaml' })).toContainText(
    'broken.yaml:6:9 cases[0].assert[0].containz Unknown assertion "containz"',
  );
  // The valid suites beside it ran, every cell to the end, and passed.
  await expect(app.getByRole('table', { name: 'Results of Echo replies' })).toBeVisible();
  await expect(cells(app).and(app.locator('[data-state="passed"]')).first()).toBeVisible();
  await expect(cells(app).and(app.locator(':not([data-state="passed"])'))).toHaveCount(0);
  await expect(app.getByRole('alert')).toHaveCount(0);
  await broken.scrollIntoViewIfNeeded();
  await screenshotLightAndDark(app, 'tests-broken-file');
});
