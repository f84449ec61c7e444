// `agent-console mcp` against the hostile server, which echoes the stored key in every field of
// every endpoint and in every header, plain and JSON-escaped: driven by the SDK's own client over
// stdio, every tool that reaches the server, with a profile per mode (the key in the real keychain
// through `keys add`). No message the server sends the client — results, tool errors, progress
// notifications — nothing on its stderr and no file it wrote holds a 12-character run of the key.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clearService, openRealKeychain, testService } from '../support/keychain';
import { removeDir, tempDir } from '../support/mock';
import { startHostileServer, type HostileServer } from './hostile-server';
import { fileLeaks, leaks, runCli, type Secret } from './hostile-support';
import { plantKey } from './leak-check';

const KEY = plantKey('hm5');
const SECRETS: Secret[] = [{ name: 'KEY', value: KEY }];
const MODES = ['plain', 'escaped'] as const;
const service = testService('hostile-mcp');
const keychain = await openRealKeychain(testService('hostile-mcp-probe'));
let dataDir: string;
let server: HostileServer;
let client: Client;
const heard: string[] = [];

const cli = async (args: string[], stdin?: string): Promise<void> => {
  const run = await runCli(['--data-dir', dataDir, ...args], {
    ...(stdin !== undefined ? { stdin } : {}),
    env: { AGENT_CONSOLE_KEYCHAIN_SERVICE: service, AGENT_API_KEY: undefined },
  });
  if (run.code !== 0) throw new Error(`${args.slice(0, 2).join(' ')}: ${run.stderr}`);
};

describe.skipIf(keychain.skipReason !== undefined)(
  `the MCP server against the hostile server ${keychain.skipReason ?? ''}`,
  () => {
    beforeAll(async () => {
      dataDir = tempDir('agent-console-hostile-mcp-');
      server = await startHostileServer();
      await cli(['keys', 'add', '--name', 'hostile'], `${KEY}\n`);
      for (const mode of MODES) {
        await cli(['profiles', 'add', '--name', mode, '--base-url', server.url(mode), '--key', 'hostile']);
      }
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: ['bin/agent-console.js', 'mcp', '--data-dir', dataDir],
        env: { ...(process.env as Record<string, string>), AGENT_CONSOLE_KEYCHAIN_SERVICE: service },
        stderr: 'pipe',
      });
      transport.stderr?.on('data', (d: Buffer) => heard.push(d.toString()));
      client = new Client({ name: 'hostile-mcp-test', version: '1.0.0' });
      await client.connect(transport);
      const deliver = transport.onmessage;
      transport.onmessage = (message) => {
        heard.push(JSON.stringify(message));
        deliver?.(message);
      };
    }, 60_000);

    afterAll(async () => {
      await client?.close();
      await server?.close();
      await clearService(service).catch(() => undefined);
      if (dataDir) removeDir(dataDir);
    });

    test.each(MODES)(
      '%s: every tool that reaches the server gives the client no part of the key',
      async (profile) => {
        const calls: [string, Record<string, unknown>][] = [
          ['list_agents', {}],
          ['list_conversations', {}],
          ['list_threads', {}],
          ['create_thread', { message: 'hello', title: 'A thread' }],
          ['send_thread_message', { thread_id: 'thr_hostile1', message: 'again' }],
          ['get_usage', {}],
          ['get_health', {}],
          ['chat', { message: 'hello' }],
          ['chat', { message: 'stream-error' }],
          ['read_history', {}],
        ];
        const failed: string[] = [];
        for (const [name, args] of calls) {
          const result = await client.callTool({ name, arguments: { ...args, profile } }, undefined, {
            onprogress: () => undefined,
          });
          if (result.isError && !(name === 'chat' && args.message === 'stream-error')) {
            failed.push(`${name}: ${JSON.stringify(result.content).slice(0, 200)}`);
          }
        }
        expect.soft(failed).toEqual([]);
        expect
          .soft(server.requests.filter((r) => r.mode === profile && r.bearer === KEY).length)
          .toBeGreaterThan(5);
        // The server did echo it: what reached the client is the mask.
        expect(heard.join('\n')).toContain(`***…${KEY.slice(-4)}`);
        expect(leaks(`${profile}: what the client heard`, heard.join('\n'), SECRETS)).toEqual([]);
        // What it recorded (transcripts, the log) neither.
        expect(fileLeaks(dataDir, SECRETS)).toEqual([]);
      },
      90_000,
    );
  },
);
