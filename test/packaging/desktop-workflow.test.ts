// .github/workflows/desktop.yml cannot run here (no Electron binary, no macOS or Windows): this
// checks that it parses, has the shape GitHub Actions requires, and that everything it names exists —
// the npm scripts, the Playwright project, the installers electron-builder.yml builds.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
  shell?: string;
}
interface Job {
  'runs-on': string;
  strategy?: { matrix?: { os?: string[] } };
  steps: Step[];
}
interface Workflow {
  name: string;
  on: Record<string, unknown>;
  jobs: Record<string, Job>;
}

const workflow = parse(readFileSync('.github/workflows/desktop.yml', 'utf8')) as Workflow;
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
const builder = parse(readFileSync('electron-builder.yml', 'utf8')) as {
  linux: { target: string[] };
  mac: { target: { target: string }[] };
  win: { target: string[] };
};
const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
const runs = steps.flatMap((s) => (s.run ? [s.run] : []));

describe('the desktop workflow', () => {
  it('is a workflow GitHub can run: triggers, and jobs whose steps each use an action or run a command', () => {
    expect(workflow.name).toBeTruthy();
    expect(Object.keys(workflow.on)).toEqual(expect.arrayContaining(['push', 'pull_request']));
    for (const [id, job] of Object.entries(workflow.jobs)) {
      expect(id).toMatch(/^[A-Za-z_][A-Za-z0-9_-]*$/);
      expect(job['runs-on']).toBeTruthy();
      expect(job.steps.length).toBeGreaterThan(0);
      for (const step of job.steps) {
        expect(Boolean(step.uses) !== Boolean(step.run), JSON.stringify(step)).toBe(true);
        // Actions pinned to a major version at least, never a moving branch.
        if (step.uses) expect(step.uses).toMatch(/^[\w.-]+\/[\w.-]+@v\d+/);
      }
    }
  });

  it('runs on Linux, macOS and Windows', () => {
    const oses = Object.values(workflow.jobs).flatMap((job) => job.strategy?.matrix?.os ?? []);
    for (const os of ['ubuntu', 'macos', 'windows']) expect(oses.some((o) => o.startsWith(os))).toBe(true);
  });

  it('names only npm scripts that exist, and the electron project runs the _electron tests', () => {
    const named = runs.flatMap((run) => [...run.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1] as string));
    expect(named).toEqual(expect.arrayContaining(['build', 'test:desktop', 'dist']));
    for (const script of named) expect(pkg.scripts, script).toHaveProperty(script);
    expect(pkg.scripts['test:desktop']).toBe('playwright test --project electron');
    const config = readFileSync('playwright.config.ts', 'utf8');
    expect(config).toMatch(/name: 'electron', testDir: 'test\/electron'/);
  });

  it('runs the real app under a display and an unlocked keyring on Linux', () => {
    const linux = runs.find((run) => run.includes('test:desktop') && run.includes('xvfb-run'));
    expect(linux).toBeDefined();
    expect(linux).toContain('dbus-run-session');
    expect(linux).toContain('gnome-keyring-daemon --unlock');
  });

  it('uploads every installer electron-builder.yml builds', () => {
    const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact') && !s.if);
    const paths = String(upload?.with?.path ?? '');
    const built = [
      ...builder.linux.target,
      ...builder.mac.target.map((t) => t.target),
      ...builder.win.target.map((t) => (t === 'nsis' ? 'exe' : t)),
    ];
    for (const target of built) expect(paths).toContain(`dist/*.${target}`);
    expect(upload?.with?.['if-no-files-found']).toBe('error');
  });

  it('installs both keychain bindings before the universal mac build', () => {
    const mac = steps.find((s) => s.if === "runner.os == 'macOS'" && s.run?.includes('keyring-darwin'));
    expect(mac?.run).toContain('@napi-rs/keyring-darwin-x64@');
    expect(mac?.run).toContain('@napi-rs/keyring-darwin-arm64@');
    const order = steps.map((s) => s.run ?? s.uses ?? '');
    const dist = order.findIndex((r) => r.includes('npm run dist'));
    expect(order.findIndex((r) => r.includes('keyring-darwin'))).toBeLessThan(dist);
  });
});
