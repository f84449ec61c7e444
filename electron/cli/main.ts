// `agent-console`: the console's core on the command line, for scripts and CI. Human tables by
// default, --json for scripts, exit codes by error class (README), progress on stderr.
import { parseArgs } from 'node:util';
import { ConsoleCore } from '../core/console-core';
import { guardProcessOutput, guardTerminal } from '../core/output-guard';
import { defaultDataDir } from '../core/paths';
import {
  agentsCommand,
  chatCommand,
  conversationsCommand,
  healthCommand,
  keysCommand,
  profilesCommand,
  threadsCommand,
  usageCommand,
  type Io,
} from './commands';
import { MOCK_HELP, mockCommand } from './mock-commands';
import { describeError, EXIT, exitCodeFor, onStopSignals, UsageError } from './output';

const HELP = `Usage: agent-console <command> [options]

Commands:
  keys list | add --name N [--session-only] | remove <name>   (add reads the key from stdin or a prompt)
  profiles list | add --name N --base-url URL --key <key> [--ca FILE] [--allow-new-origin] | use <name> | remove <name>
  agents [--limit N] [--offset N]
  conversations [--agent SLUG] [--limit N] [--offset N]
  threads list | create --message M [--title T] [--agent SLUG] | send <thread-id> <message>
  chat [--agent SLUG] [--session ID] [--no-stream] [--record NAME] <message>   (or the message on stdin;
       --record saves the streamed reply as a fixture the mock can replay)
  usage [--days N]
  health [--watch] [--interval SECONDS]
  test <files or folders…> [--agent SLUG…] [--reporter pretty|junit|json] [--out FILE] [--repeat N]
       [--concurrency N] [--bail]   (agent test suites; \`agent-console test --help\`)
  monitor [--config FILE] [--metrics HOST:PORT]   (the monitors with no window; \`agent-console monitor --help\`)
  mcp   (a Model Context Protocol server on stdin/stdout, for coding agents; \`agent-console mcp --help\`)
  openapi [--format json|yaml]   (the service as this console understands it, as an OpenAPI 3.1 document)
${MOCK_HELP}

Options: --profile NAME  --json  --data-dir DIR  --help
The "Embedded mock" profile uses a running \`npm run mock\` on the same data dir, else starts one.`;

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  profile: { type: 'string' },
  'data-dir': { type: 'string' },
  name: { type: 'string' },
  'session-only': { type: 'boolean' },
  'base-url': { type: 'string' },
  'allow-new-origin': { type: 'boolean' },
  key: { type: 'string' },
  ca: { type: 'string' },
  agent: { type: 'string' },
  session: { type: 'string' },
  'no-stream': { type: 'boolean' },
  limit: { type: 'string' },
  offset: { type: 'string' },
  days: { type: 'string' },
  title: { type: 'string' },
  message: { type: 'string' },
  watch: { type: 'boolean' },
  interval: { type: 'string' },
  undo: { type: 'string' },
  clear: { type: 'boolean' },
  status: { type: 'string' },
  latency: { type: 'string' },
  pace: { type: 'string' },
  length: { type: 'string' },
  tier: { type: 'string' },
  plan: { type: 'string' },
  api: { type: 'string' },
  vps: { type: 'string' },
  agents: { type: 'string' },
  gateway: { type: 'string' },
  mode: { type: 'string' },
  scale: { type: 'string' },
  record: { type: 'string' },
} as const;

/** The command, wherever the global options put it. */
function commandOf(argv: string[]): string | undefined {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: false }).positionals[0];
  } catch {
    return undefined;
  }
}

export async function runCli(argv: string[]): Promise<number> {
  // Whatever this process writes passes the output guard: secrets masked, a server's control
  // characters escaped. Not the mock's own commands: there the mock is the service, and its output
  // is the keys it issues, shown as a service's dashboard shows a new key once.
  if (commandOf(argv) !== 'mock') guardProcessOutput();
  // `mock` alone or with only server flags, or `mock serve`: run the mock (as npm run mock).
  if (argv[0] === 'mock' && (argv[1] === undefined || argv[1] === 'serve' || argv[1].startsWith('--'))) {
    // The mock (fastify, selfsigned) is loaded only for this command.
    const { mockServeCommand } = await import('./mock-serve');
    await mockServeCommand(argv.slice(argv[1] === 'serve' ? 2 : 1));
    return new Promise(() => undefined); // runs until stopped
  }
  // Suites and monitors (YAML, JSON Schema) are loaded only for the commands that use them.
  if (argv[0] === 'test') return (await import('./test-command')).testCommand(argv.slice(1));
  if (argv[0] === 'monitor') return (await import('./monitor-command')).monitorCommand(argv.slice(1));
  if (argv[0] === 'mcp') return (await import('./mcp-command')).mcpCommand(argv.slice(1));
  if (argv[0] === 'openapi') return (await import('./openapi-command')).openapiCommand(argv.slice(1));
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${HELP}\n`);
    return EXIT.usage;
  }
  const { values: options, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (options.help || !command) {
    process.stdout.write(`${HELP}\n`);
    return options.help ? EXIT.ok : EXIT.usage;
  }
  const controller = new AbortController();
  onStopSignals(() => controller.abort(new Error('Interrupted')));
  const io: Io = {
    json: options.json === true,
    out: (text) => process.stdout.write(`${text}\n`),
    // Guarded here too for the mock's own commands, whose stdout is not (above).
    err: (text) => process.stderr.write(`${guardTerminal(text)}\n`),
    stdin: process.stdin,
    signal: controller.signal,
  };
  const dataDir = options['data-dir'] ?? defaultDataDir();
  if (command === 'mock') {
    try {
      await mockCommand(dataDir, rest, options, io);
      return EXIT.ok;
    } catch (error) {
      io.err(`agent-console: ${describeError(error)}`);
      return exitCodeFor(error);
    }
  }
  let core: ConsoleCore | undefined;
  try {
    core = await ConsoleCore.open({
      dataDir,
      embeddedMock: 'discover',
      // Tests (and anyone keeping several setups apart) can use their own keychain service name.
      ...(process.env.AGENT_CONSOLE_KEYCHAIN_SERVICE
        ? { keychainService: process.env.AGENT_CONSOLE_KEYCHAIN_SERVICE }
        : {}),
      onWarning: io.err,
    });
    const sub = rest[0];
    switch (command) {
      case 'keys':
        await keysCommand(core, sub, rest.slice(1), options, io);
        break;
      case 'profiles':
        await profilesCommand(core, sub, rest.slice(1), options, io);
        break;
      case 'agents':
        await agentsCommand(core, options, io);
        break;
      case 'conversations':
        await conversationsCommand(core, options, io);
        break;
      case 'threads':
        await threadsCommand(core, sub, rest.slice(1), options, io);
        break;
      case 'chat':
        await chatCommand(core, rest, options, io);
        break;
      case 'usage':
        await usageCommand(core, options, io);
        break;
      case 'health':
        await healthCommand(core, options, io);
        break;
      default:
        throw new UsageError(`Unknown command "${command}".\n\n${HELP}`);
    }
    return EXIT.ok;
  } catch (error) {
    io.err(`agent-console: ${describeError(error)}`);
    return exitCodeFor(error);
  } finally {
    await core?.close();
  }
}
