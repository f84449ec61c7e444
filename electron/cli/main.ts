// `agent-console`: the console's core on the command line, for scripts and CI. Human tables by
// default, --json for scripts, exit codes by error class (README), progress on stderr.
import { CommanderError } from 'commander';
import { guardProcessOutput, guardTerminal } from '../core/output-guard';
import { CliSession } from './cli-session';
import { EXIT, usageErrorText } from './output';
import { commandNamed, createProgram } from './program';

export async function runCli(argv: string[]): Promise<number> {
  const session = new CliSession();
  const program = createProgram(session);
  // Whatever this process writes passes the output guard: secrets masked, a server's control
  // characters escaped. Not the mock's own commands: there the mock is the service, and its output
  // is the keys it issues, shown as a service's dashboard shows a new key once.
  program.hook('preSubcommand', (_program, command) => {
    if (command.name() !== 'mock') guardProcessOutput();
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    // --help asked for (0), or shown because no command was named (a usage error, as before).
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.ok;
    if (error.code === 'commander.help') return EXIT.usage;
    const command = commandNamed(program, argv);
    const path = [];
    for (let c: typeof command | null = command; c; c = c.parent) path.unshift(c.name());
    if (!session.outputClosed)
      process.stderr.write(`${guardTerminal(usageErrorText(error.message, path.join(' ')))}\n`);
    return EXIT.usage;
  } finally {
    session.dispose();
  }
  return session.outputClosed ? EXIT.ok : session.exitCode;
}
