// Runs suite text against a real mock over HTTPS through the real exchange seam (the core's
// exchanges over an ApiClient and its rate limiter): what `agent-console test` does, without the process around it.
import { systemClock, type Clock } from '../../shared/clock';
import type { CheckResult, StepResult, SuiteRunEvent, SuiteRunResult } from '../../shared/suite-run';
import { ApiClient } from '../../electron/core/api-client';
import type { Profile } from '../../electron/core/profiles';
import { RateLimiter } from '../../electron/core/rate-limiter';
import { ChatExchanges, ThreadExchanges, type ExchangeHost } from '../../electron/core/exchanges';
import { coreSuiteExchange, type SuiteExchange } from '../../electron/core/suites/suite-exchange';
import { TranscriptStore } from '../../electron/core/transcript-store';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { removeDir, startTestMock, tempDir, type TestMock } from './mock';
import { parseSuite } from '../../electron/core/suites/suite-loader';
import { runSuites, type RunOptions } from '../../electron/core/suites/suite-runner';
import { suiteTargets } from '../../electron/core/suites/suite-targets';
import type { MockServer } from '../../mock/server';

export interface SuiteHarness {
  exchange: SuiteExchange;
  limiter: RateLimiter;
  profile: Profile;
  run(
    yaml: string,
    options?: Partial<Omit<RunOptions, 'exchange'>> & { env?: Record<string, string> },
  ): Promise<SuiteRunResult & { events: SuiteRunEvent[] }>;
  close(): Promise<void>;
}

export function suiteHarness(
  server: MockServer,
  options: { key?: keyof MockServer['keys']; clock?: Clock; limit?: number } = {},
): SuiteHarness {
  const clock = options.clock ?? systemClock;
  const limiter = new RateLimiter({ clock, ...(options.limit ? { limit: options.limit } : {}) });
  const secret = server.keys[options.key ?? 'pro'];
  const client = new ApiClient({
    profileId: 'mock',
    baseUrl: server.baseUrl,
    ca: server.ca,
    keyId: options.key ?? 'pro',
    secret: async () => secret,
    limiter,
    clock,
  });
  const profile: Profile = {
    id: 'mock',
    name: 'Mock',
    baseUrl: server.baseUrl,
    keyId: 'pro',
    builtIn: false,
  };
  // The core's exchange path over this one client; suite runs record no transcripts, so the store
  // stays empty (a test below would see it otherwise).
  const host: ExchangeHost = {
    transcripts: new TranscriptStore(tempDir('agent-console-suite-harness-')),
    profile: () => profile,
    client: () => client,
  };
  const exchange = coreSuiteExchange({ chat: new ChatExchanges(host), threads: new ThreadExchanges(host) });
  return {
    exchange,
    limiter,
    profile,
    async run(yaml, { env = {}, ...runOptions } = {}) {
      const suite = parseSuite(yaml, 'suite.yaml', env);
      const events: SuiteRunEvent[] = [];
      const result = await runSuites(
        [{ suite, targets: suiteTargets(suite, { resolveProfile: () => profile }) }],
        {
          exchange,
          ...runOptions,
          onEvent: (event) => {
            events.push(event);
            runOptions.onEvent?.(event);
          },
        },
      );
      return { ...result, events };
    },
    close: () => client.close(),
  };
}

/** The steps of every attempt of a run, in order. */
export function stepsOf(result: SuiteRunResult): StepResult[] {
  return result.suites.flatMap((s) => s.cells.flatMap((c) => c.attempts.flatMap((a) => a.steps)));
}

/** The checks of the first attempt of the case named `name`, by kind. */
export function checksOf(result: SuiteRunResult, name: string): CheckResult[] {
  const cell = result.suites.flatMap((s) => s.cells).find((c) => c.caseName === name);
  if (!cell) throw new Error(`no case named ${name}`);
  return cell.attempts[0]?.steps.flatMap((s) => s.checks) ?? [];
}

/**
 * For a test file: the real mock and a harness on it, started once, reset to the seed before each
 * test and removed after the file. Read `mock` and `harness` inside tests (they exist from beforeAll).
 */
export function suiteHarnessForFile(): { readonly mock: TestMock; readonly harness: SuiteHarness } {
  const shared = {} as { mock: TestMock; harness: SuiteHarness };
  beforeAll(async () => {
    shared.mock = await startTestMock();
    shared.harness = suiteHarness(shared.mock.server);
  });
  beforeEach(() => shared.mock.server.control.reset());
  afterAll(async () => {
    await shared.harness.close();
    await shared.mock.stop();
    removeDir(shared.mock.dataDir);
  });
  return shared;
}
