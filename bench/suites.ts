// A suite run larger than the key's limit: 40 cases × 3 agents = 120 exchanges on a
// tier-60 key, through the real core (its limiter, its API client, the embedded mock over HTTPS),
// on the real clock. The limit allows 60 requests in any 60 seconds, so the 61st cannot leave
// before the first has aged out of the window: about 60 s is the least such a run can take.
// Goals: zero 429s, and a wall time within 10% of that minimum.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConsoleCore } from '../electron/core/console-core';
import { parseSuite } from '../electron/core/suites/suite-loader';
import type { Figure } from './core';

const CASES = 40;
const AGENTS = ['echo', 'helpdesk', 'storyteller'];
const WINDOW_S = 60;

export async function suiteRunFigures(): Promise<Figure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-console-bench-suites-'));
  const core = await ConsoleCore.open({
    dataDir,
    embeddedMock: 'in-process',
    keychainService: `agent-console-bench-${process.pid}`,
  });
  try {
    // A shorter story (40 chunks 10 ms apart) so each exchange takes well under a second, as a
    // typical agent reply does; the figure is about pacing, not about the agents' own speed.
    core.mock?.control.setAgent('storyteller', { chunkCount: 40, chunkDelayMs: 10, latencyMs: 100 });
    const cases = Array.from(
      { length: CASES },
      (_, i) => `  - { name: case ${i + 1}, message: "question ${i + 1}", assert: [{ completes: true }] }`,
    );
    const suite = parseSuite(
      `name: Bench\ntargets: { agents: [${AGENTS.join(', ')}] }\ncases:\n${cases.join('\n')}\n`,
      'bench.yaml',
    );
    const t0 = performance.now();
    const result = await core.suites.run([{ suite, targets: core.suites.targets(suite) }], {
      concurrency: 16,
    });
    const wallS = (performance.now() - t0) / 1000;
    // The mock logs a stream once its reply has ended: let the last ones land.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const served = core.mock?.control.requests().filter((r) => r.path === '/api/v1/chat') ?? [];
    const refused = served.filter((r) => r.status === 429).length;
    const exchanges = CASES * AGENTS.length;
    return [
      {
        figure: 'suite run, 120 exchanges, tier 60',
        value: `${wallS.toFixed(1)} s`,
        note:
          `${(wallS / WINDOW_S).toFixed(3)}× the ${WINDOW_S} s minimum (goal ≤ 1.10×); ` +
          `${result.totals.passed}/${exchanges} passed, concurrency 16`,
      },
      {
        figure: 'suite run, 429s',
        value: `${refused}`,
        // The mock's request log keeps the newest entries only; the runner counts every 429.
        note: `answered 429 in the mock's last ${served.length} chats (goal 0); the runner saw ${result.rateLimited} of ${JUDGED_CASES * 2}`,
      },
    ];
  } finally {
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const JUDGED_CASES = 300;
const JUDGED_TIER = 300;

/**
 * A judged run: 300 cases on a tier-300 key, each an exchange with echo and its grading by the
 * mock's grader, 600 requests through the one key limiter. 300 may leave in any 60 s, so the 301st
 * waits for the first to age out: about 60 s is the least it can take. Goals: zero 429s (grading
 * causes none of its own), and a wall time within 10% of that minimum.
 */
export async function judgedSuiteRunFigures(): Promise<Figure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-console-bench-judged-'));
  const core = await ConsoleCore.open({
    dataDir,
    embeddedMock: 'in-process',
    keychainService: `agent-console-bench-${process.pid}`,
  });
  try {
    // The embedded profile's demo key is the mock's `pro` key.
    core.mock?.control.updateKey('pro', { tier: JUDGED_TIER });
    const cases = Array.from(
      { length: JUDGED_CASES },
      (_, i) =>
        `  - { name: case ${i + 1}, message: "refund ${i + 1} issued", assert: [{ judge: { rubric: 'Says "refund" "issued"' } }] }`,
    );
    const suite = parseSuite(
      `name: Judged bench\ntargets: { agents: [echo] }\ngrader: { agent: grader }\ndefaults: { stream: false }\ncases:\n${cases.join('\n')}\n`,
      'judged-bench.yaml',
    );
    const t0 = performance.now();
    const result = await core.suites.run([{ suite, targets: core.suites.targets(suite) }], {
      concurrency: 32,
    });
    const wallS = (performance.now() - t0) / 1000;
    const served = core.mock?.control.requests().filter((r) => r.path === '/api/v1/chat') ?? [];
    const refused = served.filter((r) => r.status === 429).length;
    return [
      {
        figure: `judged suite run, ${JUDGED_CASES} cases (${JUDGED_CASES * 2} requests), tier ${JUDGED_TIER}`,
        value: `${wallS.toFixed(1)} s`,
        note:
          `${(wallS / WINDOW_S).toFixed(3)}× the ${WINDOW_S} s minimum (goal ≤ 1.10×); ` +
          `${result.totals.passed}/${JUDGED_CASES} passed, concurrency 32`,
      },
      {
        figure: 'judged suite run, 429s',
        value: `${refused}`,
        // The mock's request log keeps the newest entries only; the runner counts every 429.
        note: `answered 429 in the mock's last ${served.length} chats (goal 0); the runner saw ${result.rateLimited} of ${JUDGED_CASES * 2}`,
      },
    ];
  } finally {
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
