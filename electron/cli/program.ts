// The one commander tree: the global options (before or after any command, as git, docker and
// kubectl take theirs) and every route's command. Help and usage errors come from it.
import { Command } from 'commander';
import type { CliSession } from './cli-session';
import { ROUTES, type Route } from './routes';

/** "agents [--limit N] [--offset N]" in the list of commands: its options, while they fit. */
function commandTerm(command: Command): string {
  const subcommands = command.commands.map((c) => c.name());
  const args = command.registeredArguments.map((a) => {
    const name = `${a.name()}${a.variadic ? '…' : ''}`;
    return a.required ? `<${name}>` : `[${name}]`;
  });
  const options = command.options.map((o) => {
    const value = /<([^>]+)>/.exec(o.flags)?.[1];
    return `[${o.long}${value ? ` ${value.toUpperCase()}` : ''}]`;
  });
  const listed = subcommands.join('|');
  const head = [command.name(), listed.length <= 30 ? listed : '<command>', ...args]
    .filter(Boolean)
    .join(' ');
  const full = [head, ...options].join(' ');
  return full.length <= 44 || options.length === 0 ? full : `${head} [options]`;
}

/** The command a command line names (for pointing at its help), however far its parsing got. */
export function commandNamed(program: Command, argv: readonly string[]): Command {
  let command = program;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      const options = [];
      for (let c: Command | null = command; c; c = c.parent) options.push(...c.options);
      const option = options.find((o) => o.long === arg || o.short === arg);
      if (option && (option.required || option.optional)) i++;
      continue;
    }
    const sub = command.commands.find((c) => c.name() === arg);
    if (sub) command = sub;
  }
  return command;
}

export function createProgram(session: CliSession, routes: readonly Route[] = ROUTES): Command {
  const program = new Command('agent-console')
    .description(
      'The Agent Console on the command line, for scripts and CI: human tables by default, --json for ' +
        'scripts, exit codes by error class, progress on stderr. The "Embedded mock" profile uses a ' +
        'running `npm run mock` on the same data folder, else starts one.',
    )
    .usage('[options] <command> [command options]')
    .option('--profile <profile>', 'the profile to use (default: the active one)')
    .option(
      '--data-dir <dir>',
      "the console's data folder (default: $AGENT_CONSOLE_DATA_DIR, else the app's)",
    )
    .option('--json', 'JSON for scripts instead of tables')
    // Inherited by every command added below.
    .configureHelp({
      showGlobalOptions: true,
      subcommandTerm: commandTerm,
    })
    // Usage errors are said by runCli in one line, with where the help is.
    .configureOutput({ outputError: () => undefined })
    .exitOverride();
  for (const route of routes) route(program, session);
  return program;
}
