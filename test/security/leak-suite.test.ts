// The leak suite, through the bridge the renderer uses and the CLI a user runs: a server
// that echoes the key (401 bodies, error events, content split across chunks at every offset) and
// a profile pointing a stored key at a new loopback origin, or binding a key that has no server yet.
// Afterwards nothing that left the core — bridge results and events, exports, fixtures, every file
// in the data folder, CLI output — holds the key or any 8-character piece of it; and no origin saw
// a key unconfirmed.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BridgeHost } from '../../electron/bridge/bridge-host';
import { ConsoleCore } from '../../electron/core/console-core';
import type { StreamEndEvent } from '../../shared/bridge';
import { testService } from '../support/keychain';
import { removeDir, tempDir } from '../support/mock';
import { startEchoServer, type EchoServer } from './echo-server';
import { keyPieces, plantKey } from './leak-check';

const KEY = plantKey();
const service = testService('leak');
let dataDir: string;
let core: ConsoleCore;
let host: BridgeHost;
let echo: EchoServer;
let evil: EchoServer;
let keyId: string;
/** Everything that crossed the bridge, both ways out of the core. */
const traffic: string[] = [];
const events: { event: string; payload: unknown }[] = [];

async function call(name: string, input: unknown) {
  const result = await host.invoke(name, input);
  traffic.push(JSON.stringify(result));
  return result;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

async function streamed(message: string): Promise<StreamEndEvent> {
  const streamId = randomUUID();
  await call('chat:stream', { streamId, message, session_id: 'leaksuite', startedHere: true });
  for (let i = 0; i < 500; i++) {
    const end = events.find(
      (e) => e.event === 'chat:end' && (e.payload as StreamEndEvent).streamId === streamId,
    );
    if (end) return end.payload as StreamEndEvent;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`stream ${message} never ended`);
}

beforeAll(async () => {
  dataDir = tempDir('agent-console-leak-');
  echo = await startEchoServer();
  evil = await startEchoServer();
  core = await ConsoleCore.open({ dataDir, embeddedMock: 'none', keychainService: service });
  host = new BridgeHost(core, { transport: 'web', version: 'test' });
  host.onEvent((event, payload) => {
    events.push({ event, payload });
    traffic.push(JSON.stringify(payload));
  });
  const added = await call('keys:add', {
    name: 'Production',
    secret: KEY,
    baseUrl: echo.baseUrl,
    ...((await core.vault.keychainChecked()).available ? {} : { sessionOnly: true }),
  });
  if (!added.ok) throw new Error(added.error.message);
  keyId = (added.value as { id: string }).id;
  const profile = await call('profiles:add', { name: 'Echo', baseUrl: echo.baseUrl, keyId });
  expect(profile.ok).toBe(true);
  await call('profiles:use', { id: (profile as { value: { id: string } }).value.id });
});

afterAll(async () => {
  host.close();
  await core.close();
  for (const key of core.vault.list()) await core.vault.remove(key.id).catch(() => undefined);
  await echo.close();
  await evil.close();
  removeDir(dataDir);
});

describe('a stored key and a new origin', () => {
  test('profiles:add to a new loopback origin is refused until the user confirms with the key', async () => {
    const refused = await call('profiles:add', { name: 'Evil', baseUrl: evil.baseUrl, keyId });
    expect(refused).toMatchObject({ ok: false, error: { code: 'ORIGIN_NOT_CONFIRMED' } });
    const guessed = await call('profiles:add', {
      name: 'Evil',
      baseUrl: evil.baseUrl,
      keyId,
      confirmKey: plantKey(),
    });
    expect(guessed).toMatchObject({ ok: false, error: { code: 'NOT_CONFIRMED' } });
    const list = await call('profiles:list', {});
    expect(JSON.stringify(list)).not.toContain(evil.baseUrl);
    expect(evil.bearers).toEqual([]);
    // What the confirmation screen does: the user types the key again.
    const confirmed = await call('profiles:add', {
      name: 'Evil',
      baseUrl: evil.baseUrl,
      keyId,
      confirmKey: KEY,
    });
    expect(confirmed).toMatchObject({ ok: true, value: { baseUrl: evil.baseUrl } });
    const tested = await call('profiles:test', { id: (confirmed as { value: { id: string } }).value.id });
    expect(tested).toMatchObject({ ok: true, value: { ok: false } });
    expect(evil.bearers).toEqual([KEY]);
    await call('profiles:remove', { id: (confirmed as { value: { id: string } }).value.id });
  });

  test('keys:add takes the server the key is for: without one it is refused, with one the key is bound to it', async () => {
    const unbound = await call('keys:add', { name: 'Nowhere', secret: plantKey(), sessionOnly: true });
    expect(unbound).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
    expect(core.vault.list().map((k) => k.name)).not.toContain('Nowhere');
    const bad = await call('keys:add', {
      name: 'Plain',
      secret: plantKey(),
      baseUrl: 'http://example.com',
      sessionOnly: true,
    });
    expect(bad).toMatchObject({ ok: false });
    expect(core.vault.list().map((k) => k.name)).not.toContain('Plain');
    // Production was added (in beforeAll) for the echo server: its first and, unconfirmed, only one.
    const production = core.vault.get(keyId);
    expect(production?.origins?.[0]).toBe(new URL(echo.baseUrl).origin);
    const listed = await call('keys:list', {});
    expect(listed).toMatchObject({
      ok: true,
      value: expect.arrayContaining([
        expect.objectContaining({
          id: keyId,
          origins: expect.arrayContaining([new URL(echo.baseUrl).origin]),
        }),
      ]),
    });
  });

  test('a key with no server yet (as `agent-console keys add` makes) is bound through the bridge only once the user types it again', async () => {
    const other = await startEchoServer();
    try {
      const secret = plantKey();
      // What `agent-console keys add` does: a key with no origin at all.
      const fromCli = await core.vault.add({ name: 'From the CLI', secret, sessionOnly: true });
      expect(fromCli.origins).toBeUndefined();
      const refused = await call('profiles:add', { name: 'Grab', baseUrl: other.baseUrl, keyId: fromCli.id });
      expect(refused).toMatchObject({ ok: false, error: { code: 'ORIGIN_NOT_CONFIRMED' } });
      const guessed = await call('profiles:add', {
        name: 'Grab',
        baseUrl: other.baseUrl,
        keyId: fromCli.id,
        confirmKey: plantKey(),
      });
      expect(guessed).toMatchObject({ ok: false, error: { code: 'NOT_CONFIRMED' } });
      expect(JSON.stringify(await call('profiles:list', {}))).not.toContain(other.baseUrl);
      expect(core.vault.get(fromCli.id)?.origins).toBeUndefined();
      expect(other.bearers).toEqual([]);
      // The user, in the Profiles screen, types the key: now it is bound, and sent there only.
      const confirmed = await call('profiles:add', {
        name: 'Mine',
        baseUrl: other.baseUrl,
        keyId: fromCli.id,
        confirmKey: secret,
      });
      expect(confirmed).toMatchObject({ ok: true, value: { baseUrl: other.baseUrl } });
      expect(core.vault.get(fromCli.id)?.origins).toEqual([new URL(other.baseUrl).origin]);
      await call('profiles:remove', { id: (confirmed as { value: { id: string } }).value.id });
      await core.vault.remove(fromCli.id);
    } finally {
      await other.close();
    }
  });

  test('key names refuse control and text-direction characters', async () => {
    for (const name of ['evil\u202Egnp.exe', 'two\nlines', 'bell\u0007', 'iso\u2067late']) {
      const result = await call('keys:add', {
        name,
        secret: plantKey(),
        baseUrl: echo.baseUrl,
        sessionOnly: true,
      });
      expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_NAME' } });
    }
  });
});

describe('a server that echoes the key', () => {
  test('401 bodies (JSON and not JSON) and stream errors reach the bridge masked', async () => {
    const profileId = core.profiles.active()?.id as string;
    const health = await call('profiles:test', { id: profileId });
    expect(health).toMatchObject({ ok: true, value: { ok: false, error: { status: 401 } } });
    expect(JSON.stringify(health)).toContain(`***…${KEY.slice(-4)}`);
    const json401 = await call('chat:send', { message: 'json401' });
    expect(json401).toMatchObject({ ok: false, error: { code: 'INVALID_KEY', status: 401 } });
    const failed = await streamed('stream-error');
    expect(failed.status).toBe('failed');
  });

  test('a key split across two chunks at every offset never shows whole or in pieces', async () => {
    const text = `Your key is ${KEY}, keep it safe.`;
    for (let at = 0; at <= text.length; at++) {
      const end = await streamed(`split:${at}`);
      expect(end.status).toBe('done');
      // At most the 3 characters before the key's "_" can have left with the first chunk.
      const masked = `[A-Za-z0-9]{0,3}\\*\\*\\*…${KEY.slice(-4)}`;
      expect(end.text).toMatch(new RegExp(`^Your key is ${masked}, keep it safe\\.$`));
    }
    const saved = await call('mock:fixtureSave', {
      name: 'echoed',
      agent: 'any',
      frames: events
        .filter((e) => e.event === 'chat:end')
        .flatMap((e) => (e.payload as StreamEndEvent).frames),
    });
    expect(saved.ok).toBe(true);
  }, 120_000);

  test('afterwards: bridge traffic, exports, fixtures and every data file hold no piece of the key', async () => {
    for (const format of ['json', 'har'] as const) {
      const exported = await call('log:export', { format });
      expect(exported.ok).toBe(true);
    }
    expect(keyPieces(traffic.join('\n'), KEY)).toEqual([]);
    const files = filesUnder(dataDir);
    expect(files.some((f) => f.includes('fixtures'))).toBe(true);
    expect(files.some((f) => f.includes('transcripts'))).toBe(true);
    for (const file of files)
      expect([file, keyPieces(readFileSync(file, 'latin1'), KEY)]).toEqual([file, []]);
  });

  test.skipIf(process.env.AGENT_CONSOLE_NO_SECRET_SERVICE === '1')(
    "the CLI's stdout and stderr hold no piece of the key (needs the keychain the CLI shares)",
    async () => {
      if (!core.vault.keychainAvailable) return; // asserted by the skip above; the key is session-only here
      const run = (args: string[]) =>
        new Promise<string>((resolve, reject) => {
          const child = spawn(process.execPath, ['bin/agent-console.js', '--data-dir', dataDir, ...args], {
            env: { ...process.env, AGENT_CONSOLE_KEYCHAIN_SERVICE: service },
          });
          let out = '';
          child.stdout.on('data', (d: Buffer) => (out += d.toString()));
          child.stderr.on('data', (d: Buffer) => (out += d.toString()));
          child.on('error', reject);
          child.on('close', () => resolve(out));
          child.stdin.end();
        });
      const outputs = await Promise.all([
        run(['chat', '--no-stream', 'json401']),
        run(['chat', '--record', 'cli-echo', 'split:20']),
        run(['health']),
      ]);
      expect(outputs.join('\n')).toContain(`***…${KEY.slice(-4)}`);
      expect(keyPieces(outputs.join('\n'), KEY)).toEqual([]);
      const fixtures = filesUnder(dataDir).filter((f) => f.includes('fixtures'));
      expect(
        fixtures.length,
        `fixtures ${fixtures.join(', ')}; the CLIs said:\n${outputs.join('\n')}`,
      ).toBeGreaterThanOrEqual(2);
      for (const file of fixtures) expect(keyPieces(readFileSync(file, 'utf8'), KEY)).toEqual([]);
    },
    120_000,
  );
});
