// The CLI's commands, each declared once on the one commander tree: its arguments, options and
// help, and the function it runs. The help, the usage errors and the shell completions are all
// made from this tree (docs/architecture.md, electron/cli/). A new command is one more route here.
import { Argument, Option, type Command } from 'commander';
import type { ConsoleCore } from '../core/console-core';
import type { CliSession, CommandContext, CommandRun } from './cli-session';
import {
  agentsCommand,
  chatCommand,
  conversationsCommand,
  healthCommand,
  threadsCommand,
  usageCommand,
} from './commands';
import type { Io, Options } from './command-io';
import { keysCommand, profilesCommand } from './profiles-commands';
import { completeValues, completionScript, SHELLS, type Shell } from './completion';
import { mockCommand } from './mock-commands';
import { UsageError } from './output';
import { testRoute } from './test-route';

/** Adds one command (with its subcommands) to the program. */
export type Route = (program: Command, session: CliSession) => void;

/**
 * A group of subcommands (keys, profiles, threads) named alone runs `run`, its list; a word that
 * names none of its subcommands is said as such.
 */
function group(command: Command, session: CliSession, run: CommandRun): Command {
  return command.allowExcessArguments().action(
    session.action(async (context) => {
      const [word] = context.words;
      if (word === undefined) return run(context);
      const known = command.commands.map((c) => c.name());
      throw new UsageError(
        `unknown ${command.name()} command ${word}: use ${known.slice(0, -1).join(', ')} or ${known.at(-1)}.`,
      );
    }),
  );
}

/** The commands whose subcommand is their second word: keys, profiles, threads (commands.ts). */
type GroupCommand = (
  core: ConsoleCore,
  sub: string | undefined,
  args: string[],
  options: Options,
  io: Io,
) => Promise<unknown>;

/** Runs a group command's `sub` (none: its list) with the operands commander read. */
const sub =
  (run: GroupCommand, name: string | undefined): CommandRun =>
  async ({ openCore, options, io }, ...operands) => {
    await run(await openCore(), name, operands.flat(), options, io);
  };

const keysRoute: Route = (program, session) => {
  const keys = group(
    program
      .command('keys')
      .description('API keys, kept in the OS keychain (the list when no subcommand is given)'),
    session,
    sub(keysCommand, undefined),
  );
  keys
    .command('list')
    .description('the stored keys: name, last four characters, tier')
    .action(session.action(sub(keysCommand, 'list')));
  keys
    .command('add')
    .description('store a key, read from stdin or a prompt that does not echo it (never from an argument)')
    .option('--name <name>', 'what to call the key')
    .option('--session-only', 'keep it in memory for this run only (no keychain)')
    .action(session.action(sub(keysCommand, 'add')));
  keys
    .command('remove')
    .description('remove a key (refused while a profile uses it)')
    .argument('<key>', "the key's id or name")
    .action(session.action(sub(keysCommand, 'remove')));
};

const profilesRoute: Route = (program, session) => {
  const profiles = group(
    program
      .command('profiles')
      .description('services and the key each uses (the list when no subcommand is given)'),
    session,
    sub(profilesCommand, undefined),
  );
  profiles
    .command('list')
    .description('the profiles; * marks the active one')
    .action(session.action(sub(profilesCommand, 'list')));
  profiles
    .command('add')
    .description('add a profile: a service and the name of a key stored with `keys add`')
    .option('--name <name>', 'what to call the profile')
    .option('--base-url <url>', "the service's address, e.g. https://agents.example.com")
    .option('--key <key-name>', 'the NAME of a key stored with `keys add` (never the key itself)')
    .option('--ca <file>', 'a PEM CA certificate to trust for this service')
    .option(
      '--proxy <url>',
      'a proxy for this service, e.g. http://proxy.corp:3128 (`none`: direct; its password from AGENT_CONSOLE_PROXY_PASSWORD)',
    )
    .option(
      '--client-cert <file>',
      'a client certificate the service asks for: PEM (with its key) or PKCS#12 (passphrase from AGENT_CONSOLE_CLIENT_CERT_PASSPHRASE)',
    )
    .option('--client-key <file>', "the client certificate's key, when it is in a PEM file of its own")
    .option('--allow-new-origin', 'let the key be sent to a server it has not been sent to before')
    .action(session.action(sub(profilesCommand, 'add')));
  profiles
    .command('use')
    .description('make a profile the active one')
    .argument('<profile>', "the profile's name")
    .action(session.action(sub(profilesCommand, 'use')));
  profiles
    .command('remove')
    .description('remove a profile (its key stays)')
    .argument('<profile>', "the profile's name")
    .action(session.action(sub(profilesCommand, 'remove')));
};

const limitOptions = (command: Command): Command =>
  command.option('--limit <n>', 'at most N (the service caps it)').option('--offset <n>', 'skip the first N');

const listRoutes: Route = (program, session) => {
  limitOptions(program.command('agents').description('the agents of the active profile')).action(
    session.action(async ({ openCore, options, io }) => agentsCommand(await openCore(), options, io)),
  );
  limitOptions(
    program
      .command('conversations')
      .description('conversations, newest first')
      .option('--agent <slug>', "only this agent's"),
  ).action(
    session.action(async ({ openCore, options, io }) => conversationsCommand(await openCore(), options, io)),
  );
  program
    .command('usage')
    .description('requests and tokens by agent')
    .option('--days <n>', 'over the last N days')
    .action(session.action(async ({ openCore, options, io }) => usageCommand(await openCore(), options, io)));
  program
    .command('health')
    .description("the service's health")
    .option('--watch', 'check again and again until Ctrl+C')
    .option('--interval <seconds>', 'with --watch: seconds between checks (default 60, at least 10)')
    .action(
      session.action(async ({ openCore, options, io }) => healthCommand(await openCore(), options, io)),
    );
};

const conversationRoutes: Route = (program, session) => {
  const threads = group(
    program
      .command('threads')
      .description('threads kept by the service (the list when no subcommand is given)'),
    session,
    sub(threadsCommand, undefined),
  );
  threads
    .command('list')
    .description('the threads, last updated first')
    .action(session.action(sub(threadsCommand, 'list')));
  threads
    .command('create')
    .description('start a thread with a first message')
    .argument('[message...]', 'the message (or --message)')
    .option('--message <text>', 'the first message')
    .option('--title <title>', "the thread's title")
    .option('--agent <slug>', 'the agent to talk to')
    .action(session.action(sub(threadsCommand, 'create')));
  threads
    .command('send')
    .description('send a message in a thread')
    .argument('<thread-id>', "the thread's id")
    .argument('[message...]', 'the message (or --message)')
    .option('--message <text>', 'the message')
    .action(session.action(sub(threadsCommand, 'send')));
  program
    .command('chat')
    .description('send a message and stream the reply (the message may come on stdin)')
    .argument('[message...]', 'the message; "-" or none: read it from stdin')
    .option('--agent <slug>', 'the agent to talk to')
    .option('--session <id>', 'continue this session (1 to 128 letters or digits)')
    .option('--no-stream', 'wait for the whole reply')
    .option('--record <name>', 'save the streamed reply as a fixture the mock can replay')
    .action(
      session.action(async ({ openCore, options, io }, words) =>
        chatCommand(await openCore(), words, options, io),
      ),
    );
};

const monitorRoute: Route = (program, session) => {
  const monitor = program
    .command('monitor')
    .description('run the monitors with no window (the default), or report on what they kept');
  monitor
    .command('run', { isDefault: true })
    .description('run the monitors with no window; one line per confirmed change; SIGTERM or Ctrl+C stops')
    .option(
      '--config <file>',
      "a monitors file (default: the data folder's monitors.yaml, as the app saves it)",
    )
    .option(
      '--metrics <host:port>',
      'serve Prometheus /metrics, the status page at /status and /status.json (and /healthz) there, e.g. 127.0.0.1:9464',
    )
    .option(
      '--status-page <dir>',
      'keep the status page of the monitors marked public: in this folder (index.html, status.json)',
    )
    .option('--status-every <seconds>', 'write the status page at most this often (default 10)')
    .addHelpText(
      'after',
      '\nA monitor\'s key comes from its profile\'s keychain entry, or, for a monitor with "service:", from the\n' +
        'environment variable it names (AGENT_API_KEY by default). Never from the file or a flag.',
    )
    .action(
      session.action(
        async (context) => (await import('./monitor-command')).monitorCommand(context),
        'agent-console monitor',
      ),
    );
  monitor
    .command('report')
    .description("each monitor's availability against its target over a month (UTC): HTML to print, or CSV")
    .option('--month <yyyy-mm>', 'the month, e.g. 2026-11')
    .option('--format <format>', 'html (a self-contained page; the default) or csv')
    .option('--decimals <n>', 'decimals of availability, cut not rounded (default 3)')
    .option('--config <file>', "a monitors file (default: the data folder's monitors.yaml)")
    .action(
      session.action(
        async (context) => (await import('./monitor-report-command')).monitorReportCommand(context),
        'agent-console monitor report',
      ),
    );
};

const searchRoute: Route = (program, session) => {
  program
    .command('search')
    .description("search every recorded message, reply and error (this console's history), newest first")
    .argument('<words...>', 'words (anywhere), "a phrase" (in order), refu* (a prefix)')
    .option('--agent <slug>', 'only conversations with this agent')
    .option('--since <when>', 'from this date, time or age (2026-01-15, 7d, 24h)')
    .option('--until <when>', 'up to this date, time or age')
    .option('--errors', 'only messages that failed or carry an error')
    .option('--limit <n>', 'at most this many (default 50)')
    .addHelpText(
      'after',
      "\nEvery profile's history unless --profile names one. --json gives the hits as one document.",
    )
    .action(
      session.action(
        async (context, words) => (await import('./search-command')).searchCommand(context, words ?? []),
        'agent-console search',
      ),
    );
};

const reviewsRoute: Route = (program, session) => {
  const reviews = program
    .command('reviews')
    .description(
      'the reviews made in the app: verdicts, labels and notes on recorded conversations and replies',
    );
  reviews
    .command('export')
    .description(
      'every review, newest first, with ids and the in-app link back, as CSV (the default) or JSON',
    )
    .addOption(new Option('--format <format>', 'csv or json (default: csv)').choices(['csv', 'json']))
    .option('--label <name>', 'only reviews that carry this label')
    .option('--since <when>', 'only reviews made from this date, time or age (2026-01-15, 7d, 24h)')
    .addHelpText('after', "\nEvery profile's reviews unless --profile names one.")
    .action(
      session.action(
        async (context) => (await import('./reviews-command')).reviewsExportCommand(context),
        'agent-console reviews export',
      ),
    );
};

const mockRoute: Route = (program, session) => {
  const mock = program
    .command('mock')
    .description("the mock service: run it, or change a running one's agents, faults and keys");
  mock
    .command('serve', { isDefault: true })
    .description("run the mock (as npm run mock); --data-dir names the mock's own folder")
    .option('--port <port>', 'the port (default 0: any free one)')
    .option('--host <host>', 'the address to listen on (default 127.0.0.1)')
    .option('--allow-remote-control', 'let other machines use the control path (with the token)')
    .option('--chat-timeout-ms <ms>', 'how long a chat may take before the mock gives up')
    .option('--client-ca <file>', 'require client certificates signed by this CA (PEM), as mutual TLS does')
    .option('--quiet', 'no request log on stderr')
    // `mock` alone, or with only these options, runs it too: a word after it is no mock command.
    .allowExcessArguments()
    .action(
      session.action(async ({ options, words }) => {
        if (words[0] !== undefined) {
          const known = mock.commands.map((c) => c.name()).join(', ');
          throw new UsageError(`unknown mock command ${words[0]}: use ${known}.`);
        }
        // The mock (fastify, selfsigned) is loaded only for this command.
        const { serveMock } = await import('./mock-serve');
        await serveMock(options);
        return new Promise<never>(() => undefined); // runs until stopped
      }),
    );
  const control =
    (sub: string) =>
    async ({ globals, options, io }: CommandContext, ...operands: string[][]) =>
      mockCommand(globals.dataDir, [sub, ...operands.flat()], options, io);
  mock
    .command('state')
    .description("the mock's agents, keys, health and chaos")
    .action(session.action(control('state')));
  mock
    .command('requests')
    .description('the requests the mock has answered')
    .action(session.action(control('requests')));
  mock
    .command('reset')
    .description('back to the seeded state: no faults, no chaos')
    .action(session.action(control('reset')));
  mock
    .command('chaos')
    .description('turn a chaos preset on (none: list the active ones)')
    .argument('[preset]', 'the preset')
    .option('--undo <preset>', 'turn this preset off')
    .option('--clear', 'turn every preset off')
    .action(session.action(control('chaos')));
  mock
    .command('agent')
    .description("change an agent's status and pace")
    .argument('<slug>', "the agent's slug")
    .option('--status <status>', 'deployed, stopped or error')
    .option('--latency <ms>', 'milliseconds before the first chunk')
    .option('--pace <ms>', 'milliseconds between chunks')
    .option('--length <n>', 'chunks per reply')
    .action(session.action(control('agent')));
  mock
    .command('health')
    .description("set the health components' states (operational, degraded or down)")
    .option('--api <state>')
    .option('--vps <state>')
    .option('--agents <state>')
    .option('--gateway <state>')
    .action(session.action(control('health')));
  mock
    .command('key')
    .description('create --name N [--tier T] [--plan P] | tier <id> <tier> | plan <id> <plan> | revoke <id>')
    .addArgument(new Argument('<action>').choices(['create', 'tier', 'plan', 'revoke']))
    .argument('[id]')
    .argument('[value]')
    .option('--name <name>', "with create: the key's name")
    .option('--tier <tier>', 'with create: 30, 60, 120 or 300 requests a minute')
    .option('--plan <plan>', 'with create: free, pro or ultra')
    .action(session.action(control('key')));
  mock
    .command('errors')
    .description('the shape of error bodies')
    .addArgument(new Argument('<shape>').choices(['nested', 'flat', 'flat-429']))
    .action(session.action(control('errors')));
  mock
    .command('fixture')
    .description(
      'list | import <file> | export <id> | remove <id> | assign <agent> <id-or-file> | clear <agent>',
    )
    .addArgument(new Argument('[action]').choices(['list', 'import', 'export', 'remove', 'assign', 'clear']))
    .argument('[ref]')
    .argument('[source]')
    .option('--mode <mode>', 'with assign: original, scaled or fast')
    .option('--scale <n>', 'with assign and --mode scaled: the factor')
    .action(session.action(control('fixture')));
};

const completionRoute: Route = (program, session) => {
  program
    .command('completion')
    .description('print a completion script: eval "$(agent-console completion bash)"')
    .addArgument(new Argument('<shell>').choices(SHELLS))
    .action(session.action(async ({ io }, [shell]) => io.out(completionScript(program, shell as Shell))));
  // What the completion scripts call for names only the data folder knows.
  program
    .command('__complete', { hidden: true })
    .addArgument(new Argument('<what>').choices(['profiles', 'agents']))
    .action(
      session.action(async (context, [what]) => completeValues(context, what as 'profiles' | 'agents')),
    );
};

const mcpRoute: Route = (program, session) => {
  program
    .command('mcp')
    .description('a Model Context Protocol server on stdin/stdout, for coding agents')
    .addHelpText(
      'after',
      '\nTools to list agents, chat (streamed as progress), start and continue threads, list conversations\n' +
        "and threads, read usage, health and this console's local history, and run agent test suites (a\n" +
        'relative path starts in the folder the server was started in). Keys come from the keychain\n' +
        "through your profiles; a tool takes a profile's name, never a key. Set it up in your MCP client\n" +
        'as the command `agent-console mcp` (README, "For coding agents").',
    )
    // The SDK is loaded only for this command.
    .action(
      session.action(
        async (context) => (await import('./mcp-command')).mcpCommand(context),
        'agent-console mcp',
      ),
    );
};

const openapiRoute: Route = (program, session) => {
  program
    .command('openapi')
    .description('the service as this console understands it, as an OpenAPI 3.1 document on stdout')
    .addOption(new Option('--format <format>', 'json or yaml (default: json)').choices(['json', 'yaml']))
    .addHelpText('after', '\n`npm run mock` serves the same document at /openapi.json.')
    .action(
      session.action(
        async (context) => (await import('./openapi-command')).openapiCommand(context),
        'agent-console openapi',
      ),
    );
};

export const ROUTES: readonly Route[] = [
  keysRoute,
  profilesRoute,
  listRoutes,
  conversationRoutes,
  testRoute,
  monitorRoute,
  searchRoute,
  reviewsRoute,
  mockRoute,
  mcpRoute,
  openapiRoute,
  completionRoute,
];
