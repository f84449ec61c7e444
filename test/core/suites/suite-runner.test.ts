// The runner against the real mock: the matrix and its events (what a grid on screen follows),
// the concurrency bound, cancel, --bail, repeats' statistics, masking, request ids and frames, a
// 429 from elsewhere waited out, and no transcript written for a suite's sessions.
import { describe, expect, test, vi } from 'vitest';
import { STREAM_DONE } from '../../../shared/api';
import type { SuiteRunEvent } from '../../../shared/suite-run';
import { ConsoleCore } from '../../../electron/core/console-core';
import { coreSuiteExchange, type SuiteExchange } from '../../../electron/core/suites/suite-exchange';
import { parseSuite } from '../../../electron/core/suites/suite-loader';
import { runSuites } from '../../../electron/core/suites/suite-runner';
import { suiteTargets } from '../../../electron/core/suites/suite-targets';
import { testService } from '../../support/keychain';
import { removeDir, tempDir } from '../../support/mock';
import { checksOf, stepsOf, suiteHarnessForFile } from '../../support/suite-harness';

const setup = suiteHarnessForFile();

/** The harness's exchange, counting calls in progress and remembering the most at once. */
function counting(inner: SuiteExchange) {
  const stats = { now: 0, most: 0 };
  const track = async <T>(call: () => Promise<T>, until: (value: T) => Promise<unknown>): Promise<T> => {
    stats.now++;
    stats.most = Math.max(stats.most, stats.now);
    try {
      const value = await call();
      void until(value).finally(() => stats.now--);
      return value;
    } catch (error) {
      stats.now--;
      throw error;
    }
  };
  const exchange: SuiteExchange = {
    chat: (p, i, o) =>
      track(
        () => inner.chat(p, i, o),
        async () => undefined,
      ),
    // A stream is in progress until it ends, not when its headers arrive.
    stream: (p, i, o) =>
      track(
        () => inner.stream(p, i, o),
        (s) => (s as unknown as { ended(): Promise<void> }).ended(),
      ),
    createThread: (p, i, o) =>
      track(
        () => inner.createThread(p, i, o),
        async () => undefined,
      ),
    sendThread: (p, t, m, o) =>
      track(
        () => inner.sendThread(p, t, m, o),
        async () => undefined,
      ),
  };
  return { exchange, stats };
}

describe('the matrix and its events', () => {
  test('cases × targets × repeats, each attempt reported as it ends and each cell once, in order', async () => {
    const result = await setup.harness.run(
      `
name: Matrix
targets: { agents: [echo, helpdesk] }
cases:
  - name: hello {{n}}
    message: hello {{n}}
    vars: [{ n: 1 }, { n: 2 }]
    assert: [{ contains: hello }]
  - name: plain
    stream: false
    message: hi
`,
      { repeat: 2, concurrency: 3 },
    );
    const { events } = result;
    expect(events[0]?.type).toBe('run-started');
    const plan = (events[0] as Extract<SuiteRunEvent, { type: 'run-started' }>).plan;
    expect(plan.totalAttempts).toBe(12);
    expect(plan.suites[0]?.cases.map((c) => [c.key, c.name, c.repeat])).toEqual([
      ['1.1', 'hello 1', 2],
      ['1.2', 'hello 2', 2],
      ['2', 'plain', 2],
    ]);
    expect(plan.suites[0]?.targets.map((t) => t.agent)).toEqual(['echo', 'helpdesk']);
    const cellIds = plan.suites[0]?.cells.map((c) => c.id) ?? [];
    expect(cellIds).toHaveLength(6);

    const finished = events.filter((e) => e.type === 'attempt-finished');
    expect(finished.map((e) => e.done)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(finished.every((e) => e.total === 12)).toBe(true);
    const cellEvents = events.flatMap((e, i) =>
      e.type === 'cell-finished' ? [{ id: e.cell.id, at: i }] : [],
    );
    expect(cellEvents.map((c) => c.id).sort()).toEqual([...cellIds].sort());
    for (const { id, at } of cellEvents) {
      // A cell is finished after both of its attempts, never before.
      const its = events.flatMap((e, i) => (e.type === 'attempt-finished' && e.cellId === id ? [i] : []));
      expect(its).toHaveLength(2);
      expect(Math.max(...its)).toBeLessThan(at);
    }
    expect(events.at(-1)).toEqual({
      type: 'run-finished',
      result: expect.objectContaining({ runId: plan.runId }),
    });

    expect(result.status).toBe('passed');
    expect(result.totals).toEqual({ attempts: 12, passed: 12, failed: 0, cancelled: 0, skipped: 0 });
    for (const cell of result.suites[0]?.cells ?? []) {
      expect(cell.attempts.map((a) => a.repeat)).toEqual([1, 2]);
      expect(cell.stats).toMatchObject({ runs: 2, passed: 2, flaky: false });
    }
  });

  test('no more attempts in flight than the concurrency allows', async () => {
    setup.mock.server.control.setAgent('echo', { chunkDelayMs: 40 });
    const suite = parseSuite(
      'name: C\ntargets: { agents: [echo] }\ncases: [{ name: a, message: a message of about forty characters }]\n',
      'c.yaml',
    );
    for (const concurrency of [1, 3]) {
      const { exchange, stats } = counting(setup.harness.exchange);
      const result = await runSuites(
        [{ suite, targets: suiteTargets(suite, { resolveProfile: () => setup.harness.profile }) }],
        { exchange, concurrency, repeat: 9 },
      );
      expect(result.totals.passed).toBe(9);
      expect(stats.most).toBe(concurrency);
    }
  });
});

describe('stopping', () => {
  test('cancel aborts attempts in flight and marks the rest cancelled; every cell still reports', async () => {
    const controller = new AbortController();
    const suite = parseSuite(
      'name: Long\ntargets: { agents: [storyteller] }\ncases: [{ name: story, message: go, repeat: 6 }]\n',
      'long.yaml',
    );
    const inner = setup.harness.exchange;
    const exchange: SuiteExchange = {
      ...inner,
      async stream(p, i, o) {
        const stream = await inner.stream(p, i, o);
        // Cancel while the first stories are streaming.
        setTimeout(() => controller.abort(), 300);
        return stream;
      },
    };
    const events: SuiteRunEvent[] = [];
    const result = await runSuites(
      [{ suite, targets: suiteTargets(suite, { resolveProfile: () => setup.harness.profile }) }],
      { exchange, concurrency: 2, signal: controller.signal, onEvent: (e) => events.push(e) },
    );
    expect(result.status).toBe('cancelled');
    expect(result.totals).toMatchObject({ attempts: 6, cancelled: 6, failed: 0, passed: 0 });
    const started = result.suites[0]?.cells[0]?.attempts.filter((a) => a.steps[0]?.chunks) ?? [];
    expect(started.length).toBeGreaterThan(0);
    for (const attempt of started) {
      expect(attempt.steps[0]?.state).toBe('cancelled');
      // Cut short: a whole story is 160 chunks.
      expect(attempt.steps[0]?.chunks).toBeLessThan(160);
      expect(attempt.steps[0]?.checks).toEqual([]);
    }
    expect(events.filter((e) => e.type === 'attempt-finished')).toHaveLength(6);
    expect(events.filter((e) => e.type === 'cell-finished')).toHaveLength(1);
  });

  test('--bail: after the first failure, the attempts not started are skipped', async () => {
    const result = await setup.harness.run(
      `
name: Bail
targets: { agents: [echo] }
cases:
  - { name: fails, message: a, assert: [{ contains: b }] }
  - { name: two, message: a }
  - { name: three, message: a }
`,
      { bail: true, concurrency: 1 },
    );
    expect(result.status).toBe('failed');
    expect(result.suites[0]?.cells.map((c) => [c.caseName, c.status])).toEqual([
      ['fails', 'failed'],
      ['two', 'skipped'],
      ['three', 'skipped'],
    ]);
    expect(stepsOf(result).map((s) => s.state)).toEqual(['done', 'skipped', 'skipped']);
  });
});

describe('what each result keeps', () => {
  test('repeats give p50/p95 and how many passed: a cell that fails once in four is flaky', async () => {
    setup.mock.server.control.setFaults({ failNext: { status: 502, count: 1, pathPrefix: '/api/v1/chat' } });
    const result = await setup.harness.run(
      'name: F\ntargets: { agents: [echo] }\ncases: [{ name: f, message: hi }]\n',
      {
        repeat: 4,
        concurrency: 1,
      },
    );
    const cell = result.suites[0]?.cells[0];
    expect(cell?.attempts.map((a) => a.status)).toEqual(['failed', 'passed', 'passed', 'passed']);
    expect(cell?.status).toBe('failed');
    expect(cell?.stats).toMatchObject({ runs: 4, passed: 3, flaky: true });
    const { ttftMs, totalMs } = cell?.stats ?? {};
    // The 502 answered before any stream: three exchanges have a first chunk.
    expect(ttftMs?.samples).toBe(3);
    expect(ttftMs?.p50).toBeLessThanOrEqual(ttftMs?.p95 ?? -1);
    expect(totalMs?.samples).toBe(3);
    expect(checksOf(result, 'f')[0]).toMatchObject({
      kind: 'reply',
      passed: false,
      actual: expect.stringMatching(/^502 /),
    });
  });

  test('request ids the service gave, the frames as they came, the timings', async () => {
    const result = await setup.harness.run(`
name: Kept
targets: { agents: [helpdesk] }
cases:
  - { name: streamed, message: hi }
  - { name: plain, stream: false, message: hi }
  - name: thread
    thread: true
    steps: [{ message: one }, { message: two }]
`);
    const steps = stepsOf(result);
    // The ids the mock gave the four POSTs it served (it logs a stream once its reply has ended,
    // which may be a moment after the client read [DONE]).
    const ids = steps.map((s) => s.requestId);
    expect(new Set(ids).size).toBe(4);
    await vi.waitFor(() => {
      const served = setup.mock.server.control
        .requests()
        .filter((r) => r.method === 'POST' && r.status === 200);
      expect(served.map((r) => r.requestId)).toEqual(expect.arrayContaining(ids));
    });
    const [streamed, plain, ...thread] = steps;
    expect(streamed?.frames.at(-1)?.data).toBe(STREAM_DONE);
    expect(
      streamed?.frames
        .slice(0, -1)
        .map((f) => JSON.parse(f.data).content)
        .join(''),
    ).toBe(streamed?.reply);
    expect(streamed?.ttftMs).toBeGreaterThanOrEqual(0);
    expect(streamed?.totalMs).toBeGreaterThanOrEqual(streamed?.ttftMs ?? Infinity);
    expect(plain).toMatchObject({ streamed: false, status: 200, frames: [] });
    expect(plain?.totalMs).toBeGreaterThan(0);
    expect(thread.map((s) => s.status)).toEqual([200, 200]);
    expect(result.suites[0]?.cells[2]?.attempts[0]?.threadId).toBe(
      setup.mock.server.service.state.threads.at(-1)?.id,
    );
  });

  // A key the service echoes is masked where the reply is read, before any consumer —
  // assertions included — sees it; an assertion can match the mask, never the key.
  test('a key-shaped secret echoed in a reply is masked before assertions and in everything kept', async () => {
    const secret = `sk9_${'A1b2C3d4'.repeat(4)}`;
    const result = await setup.harness.run(
      // Written into the file itself: a suite file cannot read a key-shaped value from the environment.
      `name: Mask\ntargets: { agents: [echo] }\ncases:\n  - { name: m, message: "key ${secret}", assert: [{ contains: "***…${secret.slice(-4)}" }, { contains: "${secret}" }] }\n`,
    );
    const checks = checksOf(result, 'm');
    expect(checks[1]).toMatchObject({ kind: 'contains', passed: true });
    expect(checks[2]?.passed).toBe(false);
    const kept = JSON.stringify(result);
    expect(kept).not.toContain(secret);
    expect(kept).toContain(`***…${secret.slice(-4)}`);
    // Streamed, the 1–3 characters before the key's `_` may have gone out before the rest arrived
    // (electron/core/redact-stream.ts); never more than those, never the key.
    expect(stepsOf(result)[0]?.reply).toMatch(
      new RegExp(`^Echo: key [A-Za-z0-9]{0,3}\\*\\*\\*…${secret.slice(-4)}$`),
    );
  });

  test('a 429 from elsewhere is waited out and the turn sent again, and counted', async () => {
    setup.mock.server.control.setFaults({ failNext: { status: 429, count: 1, pathPrefix: '/api/v1/chat' } });
    const result = await setup.harness.run(
      'name: R\ntargets: { agents: [echo] }\ncases: [{ name: r, message: hi }]\n',
    );
    expect(result.status).toBe('passed');
    expect(stepsOf(result)[0]?.rateLimited).toBe(1);
    expect(result.rateLimited).toBe(1);
    const id = stepsOf(result)[0]?.requestId;
    await vi.waitFor(() => {
      const served = setup.mock.server.control
        .requests()
        .filter((r) => r.status === 429 || r.requestId === id);
      expect(served.map((r) => [r.path, r.status])).toEqual([
        ['/api/v1/chat', 429],
        ['/api/v1/chat', 200],
      ]);
    });
  });
});

test('through the core: suite sessions are in the request log, not in the playground’s transcripts', async () => {
  const dataDir = tempDir('agent-console-suite-core-');
  const core = await ConsoleCore.open({
    dataDir,
    embeddedMock: 'in-process',
    keychainService: testService('suites'),
  });
  try {
    const profile = core.profile();
    const suite = parseSuite(
      'name: T\ntargets: { agents: [helpdesk] }\ncases: [{ name: t, steps: [{ message: one }, { message: two }] }]\n',
      't.yaml',
    );
    const result = await runSuites(
      [{ suite, targets: suiteTargets(suite, { resolveProfile: () => profile }) }],
      {
        exchange: coreSuiteExchange(core),
      },
    );
    expect(result.status).toBe('passed');
    const logged = core.requestLog.list().filter((e) => e.url.endsWith('/api/v1/chat'));
    expect(logged.map((e) => e.requestId)).toEqual(stepsOf(result).map((s) => s.requestId));
    expect((await core.transcripts.list(profile.id)).summaries).toEqual([]);
  } finally {
    await core.close();
    removeDir(dataDir);
  }
});
