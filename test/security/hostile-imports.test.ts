// Hostile curl and HAR in (docs/security.md, "Imported curl and HAR"): a key anywhere in a pasted
// curl command never reaches what the Playground keeps of it; a HAR file with a key — one this
// console stores and one it has never seen — in its headers, cookies, URL, query, bodies and ids,
// imported through the bridge as the Log and the Tests screen import it, leaves no 12-character run
// of either key in any bridge result, export, suite file or file of the data folder; opaque
// credentials (a bearer token, an API-key header, a cookie) are dropped whole; a file that is not
// JSON, of the wrong shape or too large is refused in words, and nothing hangs.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BridgeHost } from '../../electron/bridge/bridge-host';
import { ConsoleCore } from '../../electron/core/console-core';
import type { BridgeResult } from '../../shared/bridge';
import { MAX_HAR_CHARS } from '../../shared/bridge/log';
import { CurlImportError, importCurl } from '../../shared/curl-import';
import { testService } from '../support/keychain';
import { removeDir, tempDir } from '../support/mock';
import { fileLeaks, filesUnder, leaks, type Secret } from './hostile-support';
import { plantKey } from './leak-check';

const STORED = plantKey('ik1');
/** A key this console was never told of: only its shape gives it away. */
const STRANGER = plantKey('ik2');
const OPAQUE = ['opaque-bearer-token-0001', 'opaque-api-key-header-0002', 'opaque-cookie-value-0003'];
const SECRETS: Secret[] = [
  { name: 'STORED', value: STORED },
  { name: 'STRANGER', value: STRANGER },
  ...OPAQUE.map((value, i) => ({ name: `OPAQUE${i}`, value })),
];

describe('a key in a pasted curl command', () => {
  test('never reaches what the command is read as, wherever it is put', () => {
    const places = [
      (k: string) => `-H 'Authorization: Bearer ${k}'`,
      (k: string) => `--header "X-Api-Key: ${k}"`,
      (k: string) => `-u ${k}:`,
      (k: string) => `-b 'sid=${k}'`,
      (k: string) => `-H 'X-Other: ${k}'`,
      (k: string) => `-d '{"message":"${k}","agent":"${k}","session_id":"${k}","${k}":1}'`,
      (k: string) => `--url 'https://u:${k}@a.example.com/api/v1/chat?key=${k}'`,
      (k: string) => `'https://a.example.com/api/v1/${k}'`,
      (k: string) => `-d @${k}.json`,
    ];
    fc.assert(
      fc.property(
        fc.subarray(places, { minLength: 1 }),
        fc.constantFrom(' ', ' \\\n  ', '  '),
        (chosen, gap) => {
          const command = [
            'curl',
            'https://a.example.com/api/v1/chat',
            ...chosen.map((p) => p(STRANGER)),
          ].join(gap);
          let shown: string;
          try {
            shown = JSON.stringify(importCurl(command));
          } catch (error) {
            expect(error).toBeInstanceOf(CurlImportError);
            shown = (error as Error).message;
          }
          expect(leaks('curl import', shown, SECRETS)).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });

  test('a flood of quotes, backslashes or continuations is read or refused quickly', () => {
    const floods = ['"\\'.repeat(100_000), "'".repeat(100_001), '\\\n'.repeat(100_000), '$('.repeat(100_000)];
    const started = performance.now();
    for (const flood of floods) {
      try {
        importCurl(`curl https://a.example.com/api/v1/chat ${flood}`);
      } catch (error) {
        expect(error).toBeInstanceOf(CurlImportError);
      }
    }
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe('a HAR file with keys in it, imported through the bridge', () => {
  const service = testService('hostile-imports');
  let dataDir: string;
  let home: string;
  let core: ConsoleCore;
  let host: BridgeHost;
  const traffic: { where: string; text: string }[] = [];

  async function call(name: string, input: unknown = {}): Promise<BridgeResult<unknown>> {
    const result = await host.invoke(name, input);
    traffic.push({ where: name, text: JSON.stringify(result) });
    return result;
  }

  function hostileHar(): string {
    const chat = (key: string, streamed: boolean) => ({
      startedDateTime: '2026-11-28T06:00:00.000Z',
      time: 12,
      request: {
        method: 'POST',
        url: `https://me:${key}@agents.example.com/api/v1/chat?api_key=${key}&token=${OPAQUE[0]}`,
        headers: [
          { name: 'Authorization', value: `Bearer ${OPAQUE[0]}` },
          { name: 'X-Api-Key', value: OPAQUE[1] },
          { name: 'Cookie', value: `sid=${OPAQUE[2]}; k=${key}` },
          { name: 'X-Echo', value: key },
          { name: key, value: 'header named by the key' },
        ],
        cookies: [{ name: 'sid', value: OPAQUE[2] }],
        postData: {
          mimeType: 'application/json',
          text: JSON.stringify({ message: `use ${key} \u001b[2J`, agent: 'echo' }),
        },
      },
      response: {
        status: 200,
        headers: [
          { name: 'Set-Cookie', value: `sid=${OPAQUE[2]}` },
          { name: 'Content-Type', value: streamed ? 'text/event-stream' : 'application/json' },
        ],
        content: {
          text: streamed
            ? `data: {"content":"${key.replace('_', '\\u005f')}"}\n\ndata: {"content":"${key.slice(0, 10)}"}\n\ndata: {"content":"${key.slice(10)}"}\n\ndata: [DONE]\n\n`
            : JSON.stringify({ response: `here is ${key}`, request_id: `req_${key}` }),
        },
      },
      _requestId: `req_${key}`,
      _errorCode: key,
    });
    return JSON.stringify({
      log: { entries: [chat(STORED, true), chat(STRANGER, false), chat(STRANGER, true)] },
    });
  }

  beforeAll(async () => {
    dataDir = tempDir('agent-console-hostile-imports-');
    home = tempDir('agent-console-hostile-imports-home-');
    core = await ConsoleCore.open({ dataDir, embeddedMock: 'none', keychainService: service });
    host = new BridgeHost(core, { transport: 'web', version: 'test', homeDir: home });
    host.onEvent((event, payload) =>
      traffic.push({ where: `event ${event}`, text: JSON.stringify(payload) }),
    );
    const sessionOnly = !(await core.vault.keychainChecked()).available;
    const added = await call('keys:add', {
      name: 'Stored',
      secret: STORED,
      baseUrl: 'https://agents.example.com',
      ...(sessionOnly ? { sessionOnly } : {}),
    });
    expect(added.ok).toBe(true);
    mkdirSync(join(home, 'suites'));
    expect((await call('suites:open', { path: 'suites' })).ok).toBe(true);
  }, 60_000);

  afterAll(async () => {
    host?.close();
    for (const key of core?.vault.list() ?? []) await core.vault.remove(key.id).catch(() => undefined);
    await core?.close();
    if (dataDir) removeDir(dataDir);
    if (home) removeDir(home);
  });

  test('leaves no run of a key, and no opaque credential, in any result, export, suite file or data file', async () => {
    const fileName = `${STRANGER}.har`;
    const imported = await call('log:importHar', { fileName, text: hostileHar() });
    expect(imported).toMatchObject({ ok: true, value: { imported: 3, skipped: 0 } });
    const list = await call('log:list');
    const entries = (list as { ok: true; value: { id: string }[] }).value;
    for (const entry of entries) {
      await call('log:get', { id: entry.id });
      await call('log:curl', { id: entry.id });
    }
    await call('log:export', { format: 'json' });
    await call('log:export', { format: 'har' });
    await call('log:search', { text: STRANGER.slice(0, 12) });
    const cases = await call('suites:importHar', { fileName, text: hostileHar() });
    // The chats' messages held a key: no case is written, and the refusal says so.
    expect(cases).toMatchObject({ ok: false, error: { code: 'NO_CHATS' } });
    await core.close();

    const found = [
      ...traffic.flatMap(({ where, text }) => leaks(where, text, SECRETS)),
      ...fileLeaks(dataDir, SECRETS),
      ...fileLeaks(home, SECRETS),
    ];
    expect(found).toEqual([]);
    expect(filesUnder(join(home, 'suites'))).toEqual([]);
    core = await ConsoleCore.open({ dataDir, embeddedMock: 'none', keychainService: service });
  });

  test('writes a suite of the chats without a key, and nothing secret into it', async () => {
    const har = JSON.parse(hostileHar()) as {
      log: { entries: { request: { postData: { text: string } } }[] };
    };
    for (const entry of har.log.entries)
      entry.request.postData.text = JSON.stringify({ message: 'hello', agent: 'echo' });
    const written = await call('suites:importHar', { fileName: 'hostile.har', text: JSON.stringify(har) });
    // Each reply held a key: masked, it would be a wrong expectation, so those cases are left out too.
    expect(written).toMatchObject({ ok: false, error: { code: 'NO_CHATS' } });
    const clean = JSON.parse(hostileHar()) as typeof har & {
      log: { entries: { response: { content: { text: string } } }[] };
    };
    for (const entry of clean.log.entries) {
      entry.request.postData.text = JSON.stringify({ message: 'hello', agent: 'echo' });
      entry.response.content.text = JSON.stringify({ response: 'Echo: hello' });
      (entry.response as unknown as { headers: unknown[] }).headers = [];
      // A recorded error code marks a failed exchange, which makes no case.
      delete (entry as { _errorCode?: string })._errorCode;
    }
    const ok = await call('suites:importHar', { fileName: 'hostile.har', text: JSON.stringify(clean) });
    expect(ok).toMatchObject({ ok: true, value: { files: ['hostile.yaml'], cases: 3 } });
    const suite = readFileSync(join(home, 'suites', 'hostile.yaml'), 'utf8');
    expect(leaks('hostile.yaml', suite, SECRETS)).toEqual([]);
    expect(suite).toContain('contains: "Echo: hello"');
  });

  test('refuses in words a file that is not JSON, not a HAR, or too large', async () => {
    expect(await call('log:importHar', { fileName: 'x.har', text: '\u001b]0;pwned\u0007' })).toMatchObject({
      ok: false,
      error: { code: 'HAR_INVALID', message: 'The file is not JSON, so it is not a HAR file.' },
    });
    expect(await call('log:importHar', { fileName: 'x.har', text: '{"log":{"pages":[]}}' })).toMatchObject({
      ok: false,
      error: { code: 'HAR_INVALID' },
    });
    const huge = await call('log:importHar', { fileName: 'x.har', text: ' '.repeat(MAX_HAR_CHARS + 1) });
    expect(huge.ok).toBe(false);
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    expect(await call('suites:importHar', { fileName: 'x.har', text: deep })).toMatchObject({
      ok: false,
      error: { code: 'HAR_INVALID' },
    });
  });
});
