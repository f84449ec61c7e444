// The Tests screen's calls: a folder of suite files listed with its problems by line,
// edits on disk picked up, runs with progress kept on disk and compared with the previous run of
// the same suite, and "Save as test case" that keeps the file's comments and writes a case that
// passes. Against the real core and its embedded mock.
import { randomBytes } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { BridgeEvents, SuitesProgress } from '../../shared/bridge';
import type { KeptRun, RunDiff, RunListItem } from '../../shared/run-history';
import type { FolderListing, RunComparison } from '../../shared/suite-folder';
import { BridgeHost } from '../../electron/bridge/bridge-host';
import { ConsoleCore } from '../../electron/core/console-core';
import { RunStore } from '../../electron/core/suites/run-store';
import { removeDir, tempDir } from '../support/mock';

let core: ConsoleCore;
let host: BridgeHost;
let dataDir: string;
/** The web host's home folder: a typed path must name a folder inside it. */
let home: string;
let folder: string;
const events: { event: keyof BridgeEvents; payload: unknown }[] = [];

const ECHO = `# Kept: a comment the user wrote.
name: Echo
targets:
  agents: [echo]
cases:
  - name: says hello back
    message: hello
    assert:
      - contains: hello # inline comment
`;

async function call<T>(name: string, input: unknown = {}): Promise<T> {
  const result = await host.invoke(name, input);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

async function runAndWait(input: Record<string, unknown>): Promise<{
  runId: string;
  progress: SuitesProgress[];
  comparisons: Record<string, RunComparison | null>;
}> {
  const from = events.length;
  const { runId } = await call<{ runId: string }>('suites:run', input);
  for (let i = 0; i < 400; i++) {
    const progress = events
      .slice(from)
      .filter((e) => e.event === 'suites:progress')
      .map((e) => e.payload as SuitesProgress);
    const end = progress.find((p) => p.type === 'run-finished');
    if (end?.type === 'run-finished') return { runId, progress, comparisons: end.comparisons };
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the run did not finish');
}

async function nextChange(from: number): Promise<FolderListing> {
  for (let i = 0; i < 200; i++) {
    const change = events.slice(from).find((e) => e.event === 'suites:changed');
    if (change) return change.payload as FolderListing;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('no suites:changed');
}

beforeAll(async () => {
  dataDir = tempDir('agent-console-suites-bridge-');
  home = realpathSync(tempDir('agent-console-home-'));
  folder = mkdtempSync(join(home, 'suites-'));
  writeFileSync(join(folder, 'echo.yaml'), ECHO);
  writeFileSync(
    join(folder, 'broken.yaml'),
    'name: Broken\ncases:\n  - name: x\n    message: hi\n    assert:\n      - containz: hi\n',
  );
  writeFileSync(join(folder, 'notes.txt'), 'not a suite');
  core = await ConsoleCore.open({
    dataDir,
    embeddedMock: 'in-process',
    keychainService: `agent-console-tests-${randomBytes(4).toString('hex')}`,
  });
  host = new BridgeHost(core, { transport: 'web', version: 'test', homeDir: home });
  host.onEvent((event, payload) => events.push({ event, payload }));
});
afterAll(async () => {
  host.close();
  await core.close();
  removeDir(dataDir);
  removeDir(home);
});

describe('suites:*', () => {
  test('the web host opens a typed folder only inside the home folder; a relative path starts there', async () => {
    expect(await host.invoke('suites:open', {})).toMatchObject({
      ok: false,
      error: { code: 'BAD_INPUT', message: expect.stringContaining('inside your home folder') },
    });
    mkdirSync(join(home, 'projects', 'agent-tests'), { recursive: true });
    writeFileSync(join(home, 'projects', 'agent-tests', 'echo.yaml'), ECHO);
    for (const typed of [
      'projects/agent-tests',
      '~/projects/agent-tests',
      join(home, 'projects', 'agent-tests'),
    ]) {
      const listing = await call<FolderListing>('suites:open', { path: typed });
      expect(listing.folder).toBe(join(home, 'projects', 'agent-tests'));
    }
    const outside = tempDir('agent-console-outside-');
    try {
      writeFileSync(join(outside, 'secrets.yaml'), ECHO);
      symlinkSync(outside, join(home, 'linked'));
      const refusal = `Only a folder inside your home folder (${home}) can be opened by a typed path`;
      for (const typed of [outside, 'linked', '../', 'projects/../../', '/']) {
        expect(await host.invoke('suites:open', { path: typed })).toMatchObject({
          ok: false,
          error: { code: 'BAD_INPUT', message: expect.stringContaining(refusal) },
        });
      }
      expect(await host.invoke('suites:open', { path: 'nowhere' })).toMatchObject({
        ok: false,
        error: { code: 'NOT_FOUND', message: `There is no folder at ${join(home, 'nowhere')}.` },
      });
    } finally {
      removeDir(outside);
    }
  });

  test('the desktop app opens the folder its chooser gives, and no typed path', async () => {
    const chosen = tempDir('agent-console-chosen-');
    writeFileSync(join(chosen, 'echo.yaml'), ECHO);
    const desktop = new BridgeHost(core, {
      transport: 'electron',
      version: 'test',
      chooseFolder: async () => chosen,
    });
    try {
      expect(await desktop.invoke('suites:open', { path: chosen })).toMatchObject({
        ok: false,
        error: { code: 'BAD_INPUT', message: expect.stringContaining('Choose folder') },
      });
      const opened = await desktop.invoke('suites:open', {});
      expect(opened).toMatchObject({ ok: true, value: { folder: chosen } });
    } finally {
      desktop.close();
      removeDir(chosen);
    }
  });

  test('a declared value too short to mask is said with its suite', async () => {
    const dir = mkdtempSync(join(home, 'short-'));
    writeFileSync(
      join(dir, 'pin.yaml'),
      'name: Pin\nenv: [AGENT_CONSOLE_TEST_PIN]\ncases: [{ name: a, message: "{{env.AGENT_CONSOLE_TEST_PIN}}" }]\n',
    );
    process.env.AGENT_CONSOLE_TEST_PIN = '4711';
    try {
      const listing = await call<FolderListing>('suites:open', { path: dir });
      expect(listing.suites[0]).toMatchObject({
        name: 'Pin',
        warnings: ['AGENT_CONSOLE_TEST_PIN is shorter than 8 characters, so it is not masked in output.'],
      });
    } finally {
      delete process.env.AGENT_CONSOLE_TEST_PIN;
    }
  });

  test('opening a folder lists its suites with cases, and a broken file with its line', async () => {
    const listing = await call<FolderListing>('suites:open', { path: folder });
    expect(listing.suites.map((s) => s.file)).toEqual(['broken.yaml', 'echo.yaml']);
    expect(listing.suites[1]).toMatchObject({
      name: 'Echo',
      agents: ['echo'],
      cases: [{ key: '1', name: 'says hello back', line: 6 }],
    });
    expect(listing.suites[0]?.problems?.[0]).toMatchObject({
      line: 6,
      message: expect.stringContaining('containz'),
    });
  });

  test('a file outside the folder is refused', async () => {
    const refused = await host.invoke('suites:runs', { file: '../echo.yaml' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
  });

  test('a run reports progress, is kept on disk, and the next run names a new failure', async () => {
    const first = await runAndWait({ file: 'echo.yaml' });
    const types = first.progress.map((p) => p.type);
    expect(types[0]).toBe('run-started');
    expect(types).toContain('cell-finished');
    expect(first.comparisons['echo.yaml']).toBeNull();
    const kept = await call<{ runId: string; status: string }[]>('suites:runs', { file: 'echo.yaml' });
    expect(kept).toEqual([expect.objectContaining({ runId: first.runId, status: 'passed' })]);

    core.mock?.control.setAgent('echo', { status: 'error' });
    try {
      const second = await runAndWait({ file: 'echo.yaml' });
      expect(second.comparisons['echo.yaml']).toMatchObject({
        previousRunId: first.runId,
        newFailures: [{ caseName: 'says hello back', target: 'Embedded mock / echo' }],
        fixed: [],
      });
      const again = await call<RunComparison>('suites:compare', { file: 'echo.yaml', runId: second.runId });
      expect(again.newFailures).toHaveLength(1);
      const stored = await call<{
        cells: {
          status: string;
          attempts: { steps: { checks: { passed: boolean; expected: string; actual: string }[] }[] }[];
        }[];
      }>('suites:runGet', { file: 'echo.yaml', runId: second.runId });
      const failedCheck = stored.cells[0]?.attempts[0]?.steps[0]?.checks.find((c) => !c.passed);
      expect(failedCheck?.actual).toBeTruthy();
    } finally {
      core.mock?.control.setAgent('echo', { status: 'deployed' });
    }
  });

  test('the run history: each kept run with where and what, a whole run by id, the diff of two', async () => {
    // The two runs above, newest first: echo failing, then echo passing.
    const [failing, passing] = await call<RunListItem[]>('suites:history');
    expect(failing?.totals).toMatchObject({ passed: 0, failed: 1 });
    expect(passing?.totals).toMatchObject({ passed: 1, failed: 0 });
    expect(passing?.where.profiles).toEqual([
      { name: 'Embedded mock', host: expect.stringMatching(/^127\.0\.0\.1:\d+$/) },
    ]);
    expect(passing?.what.files).toEqual([{ file: join(folder, 'echo.yaml'), name: 'Echo' }]);
    const whole = await call<KeptRun>('suites:historyRun', { runId: passing?.runId.slice(0, 8) });
    expect(whole.suites.map((s) => s.cells.map((c) => c.status))).toEqual([['passed']]);
    const diff = await call<RunDiff>('suites:diff', { base: passing?.runId, head: failing?.runId });
    expect(diff.cells.map((c) => [c.caseName, c.change])).toEqual([['says hello back', 'regression']]);
    expect(diff.cells[0]?.replies.before).toEqual(['Echo: hello']);
    // A window names kept runs only, never a file for the core to read.
    const file = join(dataDir, 'results.json');
    writeFileSync(file, JSON.stringify(whole));
    const refused = await host.invoke('suites:diff', { base: file, head: failing?.runId });
    expect(refused).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  test('a whole-folder run fails a broken file as one row with its line, and runs the others', async () => {
    const run = await runAndWait({});
    const started = run.progress.find((p) => p.type === 'run-started');
    const broken = [
      { file: join(folder, 'broken.yaml'), problems: [expect.objectContaining({ line: 6, col: 9 })] },
    ];
    expect(started?.type === 'run-started' && started.plan.broken).toEqual(broken);
    expect(started?.type === 'run-started' && started.plan.suites.map((s) => s.name)).toEqual(['Echo']);
    const cells = run.progress.filter((p) => p.type === 'cell-finished');
    expect(cells.map((c) => c.type === 'cell-finished' && c.cell.status)).toEqual(['passed']);
    const end = run.progress.find((p) => p.type === 'run-finished');
    expect(end?.type === 'run-finished' && end.result).toMatchObject({ status: 'failed', broken });
    // Run on its own, the broken file is still a run: its one failing row.
    const alone = await runAndWait({ file: 'broken.yaml' });
    const finished = alone.progress.find((p) => p.type === 'run-finished');
    expect(finished?.type === 'run-finished' && finished.result).toMatchObject({ status: 'failed', broken });
  });

  test('an edit on disk arrives as suites:changed', async () => {
    const from = events.length;
    writeFileSync(
      join(folder, 'broken.yaml'),
      'name: Fixed\ntargets:\n  agents: [echo]\ncases:\n  - name: fixed case\n    message: hi\n',
    );
    const listing = await nextChange(from);
    expect(listing.suites.find((s) => s.file === 'broken.yaml')).toMatchObject({
      name: 'Fixed',
      cases: [{ name: 'fixed case' }],
    });
  });

  test('"Save as test case" keeps the file\'s comments and writes a case that passes', async () => {
    await call('suites:saveCase', {
      file: 'echo.yaml',
      message: 'good morning',
      agent: 'echo',
      reply: 'Echo: good morning',
      stream: true,
      ttftMs: 3,
    });
    const text = readFileSync(join(folder, 'echo.yaml'), 'utf8');
    expect(text).toContain('# Kept: a comment the user wrote.');
    expect(text).toContain('# inline comment');
    expect(text).toContain('contains: "Echo: good morning"');
    expect(text).toContain('ttft-ms: 100');
    const listing = await call<FolderListing>('suites:list');
    const saved = listing.suites
      .find((s) => s.file === 'echo.yaml')
      ?.cases.find((c) => c.name === 'good morning');
    expect(saved).toBeDefined();
    const run = await runAndWait({ file: 'echo.yaml', caseKey: saved?.key });
    const cells = run.progress.filter((p) => p.type === 'cell-finished');
    expect(cells.map((c) => c.type === 'cell-finished' && c.cell.status)).toEqual(['passed']);
  });

  test('"Save as test case" refuses a message that holds a key, and writes nothing', async () => {
    const before = readFileSync(join(folder, 'echo.yaml'), 'utf8');
    const refused = await host.invoke('suites:saveCase', {
      file: 'echo.yaml',
      message: `my key is ams_${'a1B2'.repeat(8)}`,
      agent: 'echo',
      reply: 'Echo: my key is ***',
      stream: false,
    });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'HOLDS_SECRET',
        message: 'The message holds an API key; it was not saved to the suite file.',
      },
    });
    expect(readFileSync(join(folder, 'echo.yaml'), 'utf8')).toBe(before);
  });

  test('saving for an agent the suite does not run against is refused; a new file is made', async () => {
    const refused = await host.invoke('suites:saveCase', {
      file: 'echo.yaml',
      message: 'x',
      agent: 'helpdesk',
      reply: 'y',
      stream: false,
    });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'BAD_INPUT', message: expect.stringContaining('helpdesk') },
    });
    await call('suites:saveCase', {
      file: 'helpdesk.yaml',
      message: 'x',
      agent: 'helpdesk',
      reply: 'y',
      stream: false,
    });
    const listing = await call<FolderListing>('suites:list');
    expect(listing.suites.find((s) => s.file === 'helpdesk.yaml')).toMatchObject({
      agents: ['helpdesk'],
      cases: [{ name: 'x' }],
    });
  });
});

test('the run store keeps the newest runs only, a whole run (every suite file of it) as one', async () => {
  const dir = tempDir('agent-console-runs-');
  try {
    const store = new RunStore(
      dir,
      () => ({ keep: 2, maxAgeDays: 90 }),
      () => 2000,
    );
    for (let i = 1; i <= 4; i++) {
      await store.save({
        runId: `run${i}`,
        status: 'passed',
        startedAt: 1000 + i,
        durationMs: 1,
        suites: [
          { file: '/s/a.yaml', name: 'A', cells: [] },
          { file: '/s/b.yaml', name: 'B', cells: [] },
        ],
        totals: { attempts: 0, passed: 0, failed: 0, cancelled: 0, skipped: 0 },
        rateLimited: 0,
        where: { profiles: [] },
        what: {
          files: [
            { file: '/s/a.yaml', name: 'A' },
            { file: '/s/b.yaml', name: 'B' },
          ],
        },
      });
    }
    expect((await store.list()).map((r) => r.runId)).toEqual(['run4', 'run3']);
    // Two runs: each one file and its summary.
    expect(readdirSync(dir)).toHaveLength(4);
    expect((await store.previousSuiteRun('/s/b.yaml', 'run4'))?.runId).toBe('run3');
  } finally {
    removeDir(dir);
  }
});
