// `agent-console mcp`: the MCP server (electron/mcp/mcp-server.ts) on stdin and stdout, for a coding
// agent's client to start. stdout carries the protocol alone; words for people go to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { parseArgs } from 'node:util';
import { ConsoleCore } from '../core/console-core';
import { defaultDataDir } from '../core/paths';
import { mcpServer } from '../mcp/mcp-server';
import { describeError, EXIT, exitCodeFor, onStopSignals } from './output';

const MCP_HELP = `Usage: agent-console mcp [--data-dir DIR]

A Model Context Protocol server on stdin/stdout: tools to list agents, chat (streamed as
progress), start and continue threads, list conversations and threads, read usage, health and
this console's local history, and run agent test suites (a relative path starts in the folder
the server was started in). Keys come from the keychain through your profiles; a tool takes a
profile's name, never a key. Set it up in your MCP client as the command \`agent-console mcp\`
(README, "For coding agents").`;

export async function mcpCommand(argv: string[]): Promise<number> {
  const err = (text: string): void => void process.stderr.write(`${text}\n`);
  let options;
  try {
    options = parseArgs({
      args: argv,
      options: { 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }).values;
  } catch (error) {
    err(`agent-console mcp: ${(error as Error).message}\n\n${MCP_HELP}`);
    return EXIT.usage;
  }
  if (options.help) {
    err(MCP_HELP);
    return EXIT.ok;
  }
  let core: ConsoleCore | undefined;
  try {
    core = await ConsoleCore.open({
      dataDir: options['data-dir'] ?? defaultDataDir(),
      embeddedMock: 'discover',
      ...(process.env.AGENT_CONSOLE_KEYCHAIN_SERVICE
        ? { keychainService: process.env.AGENT_CONSOLE_KEYCHAIN_SERVICE }
        : {}),
      onWarning: err,
    });
    const server = mcpServer(core, APP_VERSION);
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((done) => {
      transport.onclose = done;
      process.stdin.once('end', done);
      onStopSignals(done, ['SIGTERM', 'SIGINT']);
    });
    await server.connect(transport);
    await closed;
    await server.close();
    return EXIT.ok;
  } catch (error) {
    err(`agent-console mcp: ${describeError(error)}`);
    return exitCodeFor(error);
  } finally {
    await core?.close();
  }
}
