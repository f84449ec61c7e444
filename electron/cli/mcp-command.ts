// `agent-console mcp`: the MCP server (electron/mcp/mcp-server.ts) on stdin and stdout, for a coding
// agent's client to start. stdout carries the protocol alone; words for people go to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { mcpServer } from '../mcp/mcp-server';
import type { CommandContext } from './cli-session';

export async function mcpCommand(context: CommandContext): Promise<void> {
  const core = await context.openCore();
  const server = mcpServer(core, APP_VERSION);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((done) => {
    transport.onclose = done;
    process.stdin.once('end', done);
    // Ctrl+C, SIGTERM or the client going away (the session's signal).
    context.io.signal.addEventListener('abort', () => done(), { once: true });
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
