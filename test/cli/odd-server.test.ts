// The CLI against an independent server (test/support/odd-server.ts, not our mock) that answers
// legally but differently: real processes, the real keychain. Values
// it does not know are shown as they came and labelled, unknown fields stay in `--json`, streams
// complete, and a 429 is waited out as Retry-After says, not as X-RateLimit-Reset.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clearService, openRealKeychain, testService } from '../support/keychain';
import { removeDir, tempDir } from '../support/mock';
import {
  ODD_AGENTS,
  ODD_CONVERSATIONS,
  ODD_KEY,
  ODD_PIECES,
  startOddServer,
  type OddServer,
} from '../support/odd-server';
import { runNode, type ProcessRun } from '../support/run-process';

let dataDir: string;
let odd: OddServer;
const service = testService('cli-odd');
const keychain = await openRealKeychain(service);

function cli(args: string[], stdin = ''): Promise<ProcessRun> {
  return runNode(['bin/agent-console.js', ...args], {
    env: { AGENT_CONSOLE_DATA_DIR: dataDir, AGENT_CONSOLE_KEYCHAIN_SERVICE: service },
    stdin,
  });
}

beforeAll(async () => {
  if (keychain.skipReason) return;
  dataDir = tempDir('agent-console-cli-odd-');
  odd = await startOddServer();
  expect((await cli(['keys', 'add', '--name', 'odd'], `${ODD_KEY}\n`)).code).toBe(0);
  const added = await cli(['profiles', 'add', '--name', 'odd', '--base-url', odd.baseUrl, '--key', 'odd']);
  expect(added.code, added.stderr).toBe(0);
}, 60_000);

afterAll(async () => {
  if (keychain.skipReason) return;
  await odd.close();
  await clearService(service).catch(() => undefined);
  removeDir(dataDir);
});

describe.skipIf(keychain.skipReason !== undefined)(
  `the CLI and a newer service ${keychain.skipReason ?? ''}`,
  () => {
    test('agents and conversations: --json keeps every field; the table labels what it does not know', async () => {
      const agents = await cli(['agents', '--profile', 'odd', '--json']);
      expect(agents.code, agents.stderr).toBe(0);
      expect(JSON.parse(agents.stdout)).toEqual(ODD_AGENTS);
      const conversations = await cli(['conversations', '--profile', 'odd', '--json']);
      expect(JSON.parse(conversations.stdout)).toEqual(ODD_CONVERSATIONS);

      const table = await cli(['agents', '--profile', 'odd']);
      expect(table.code).toBe(0);
      expect(table.stdout).toContain('deploying (unknown)');
      expect(table.stdout).toContain('2026-11-23T10:00:00 (no zone)');
      const list = await cli(['conversations', '--profile', 'odd']);
      expect(list.stdout).toContain('archived (unknown)');
      expect(list.stdout).toContain('2026-11-23T09:00:00 (no zone)');
    }, 60_000);

    test('a Text/Event-Stream reply with a usage event, and one in bare CR, print the whole reply', async () => {
      for (const message of ['hello', 'bare-cr please']) {
        const run = await cli(['chat', '--profile', 'odd', '--agent', 'builder', message]);
        expect(run.code, run.stderr).toBe(0);
        expect(run.stdout).toBe(`${ODD_PIECES.join('')}\n`);
      }
    }, 60_000);

    test('a 429 with Retry-After 3 and Reset 60 s away: the CLI retries after about 3 s and prints the page', async () => {
      odd.refuseNext('/api/v1/agents');
      const before = odd.arrivals('/api/v1/agents').length;
      const run = await cli(['agents', '--profile', 'odd', '--json']);
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual(ODD_AGENTS);
      const [refused, retried] = odd.arrivals('/api/v1/agents').slice(before);
      const waited = (retried as number) - (refused as number);
      expect(waited).toBeGreaterThanOrEqual(3_000);
      expect(waited).toBeLessThan(8_000);
    }, 60_000);
  },
);
