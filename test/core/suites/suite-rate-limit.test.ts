// A run larger than the key's limit, on a clock the test moves (the mock's window and the client's
// limiter share it): the runner sends through the key's limiter, so the service never answers 429,
// and what did not fit in the first minute goes out when the window has moved on.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ManualClock } from '../../../shared/clock';
import type { SuiteExchange } from '../../../electron/core/suites/suite-exchange';
import { parseSuite } from '../../../electron/core/suites/suite-loader';
import { runSuites } from '../../../electron/core/suites/suite-runner';
import { suiteTargets } from '../../../electron/core/suites/suite-targets';
import { removeDir, startTestMock, type TestMock } from '../../support/mock';
import { suiteHarness, type SuiteHarness } from '../../support/suite-harness';

const clock = new ManualClock();
let mock: TestMock;
let harness: SuiteHarness;

beforeAll(async () => {
  mock = await startTestMock({ clock });
  harness = suiteHarness(mock.server, { key: 'tier30', clock });
});

afterAll(async () => {
  await harness.close();
  await mock.stop();
  removeDir(mock.dataDir);
});

test('35 exchanges on a 30-a-minute key: no 429, the last 5 sent after the window moved', async () => {
  // Calls that have not returned; when all of them wait in the limiter, only time can free them.
  let pending = 0;
  const inner = harness.exchange;
  const exchange: SuiteExchange = {
    ...inner,
    chat: async (p, i, o) => {
      pending++;
      try {
        return await inner.chat(p, i, o);
      } finally {
        pending--;
      }
    },
  };
  const cases = Array.from({ length: 35 }, (_, i) => `  - { name: c${i}, message: m${i} }`).join('\n');
  const suite = parseSuite(
    `name: Many\ntargets: { agents: [echo] }\ndefaults: { stream: false }\ncases:\n${cases}\n`,
    'many.yaml',
  );
  const started = clock.now();
  let finished = false;
  const run = runSuites(
    [{ suite, targets: suiteTargets(suite, { resolveProfile: () => harness.profile }) }],
    {
      exchange,
      concurrency: 8,
    },
  ).finally(() => (finished = true));
  while (!finished) {
    if (pending > 0 && harness.limiter.state().queued === pending) await clock.advance(250);
    else await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const result = await run;

  expect(result.totals).toMatchObject({ attempts: 35, passed: 35 });
  expect(result.rateLimited).toBe(0);
  const chats = mock.server.control.requests().filter((r) => r.path === '/api/v1/chat');
  expect(chats.map((r) => r.status)).toEqual(Array(35).fill(200));
  const times = chats.map((r) => r.at).sort((a, b) => a - b);
  expect(times.slice(0, 30).every((t) => t < started + 60_000)).toBe(true);
  expect(times.slice(30).every((t) => t >= started + 60_000)).toBe(true);
});
