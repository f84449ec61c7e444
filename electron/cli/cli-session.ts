// One run of the CLI: the global options, the output, the signal every command stops on, and the
// core it opens. Every command runs through `action`, so errors, exit codes, Ctrl+C and a closed
// pipe are handled here once, whatever the command.
import type { Command } from 'commander';
import { ConsoleCore, type CoreOptions } from '../core/console-core';
import { guardTerminal } from '../core/output-guard';
import { updateNotice } from '../core/app-updates';
import { defaultDataDir, keychainServiceFromEnvironment } from '../core/paths';
import { watchClosedOutput, type ClosedOutput } from './closed-output';
import type { Io, Options } from './command-io';
import { describeError, EXIT, exitCodeFor, onStopSignals } from './output';

/** The options every command takes, before or after its name. */
export interface GlobalOptions {
  profile?: string;
  dataDir: string;
  json: boolean;
}

export interface CommandContext {
  globals: GlobalOptions;
  io: Io;
  /** The command's own options with the global ones (commander's camelCase names). */
  options: Options;
  /** Every word after the command's name that is not an option, declared as an operand or not. */
  words: readonly string[];
  /** Opens the core on the data folder; the session closes it after the command. */
  openCore(options?: Pick<CoreOptions, 'embeddedMock'>): Promise<ConsoleCore>;
}

/** A command's body: its operands (`<file…>` as one array) and context; an exit code, or ok. */
export type CommandRun = (context: CommandContext, ...operands: string[][]) => Promise<number | void>;

export class CliSession {
  exitCode: number = EXIT.ok;
  private readonly controller = new AbortController();
  private readonly output: ClosedOutput;
  private core: ConsoleCore | undefined;

  private readonly stopWatching: () => void;

  constructor() {
    this.output = watchClosedOutput(() => this.controller.abort(new Error('Output closed')));
    const stopSignals = onStopSignals(() => this.controller.abort(new Error('Interrupted')));
    this.stopWatching = () => {
      stopSignals();
      this.output.stop();
    };
  }

  /** Stops listening to the process (for a run in a process that goes on, as in the tests). */
  dispose(): void {
    this.stopWatching();
  }

  /** True once the reader of stdout or stderr has gone: nothing more is said, and the exit is 0. */
  get outputClosed(): boolean {
    return this.output.closed;
  }

  readonly io = (json: boolean): Io => ({
    json,
    out: (text) => void (this.outputClosed || process.stdout.write(`${text}\n`)),
    // Guarded here too for the mock's own commands, whose stdout is not (main.ts).
    err: (text) => void (this.outputClosed || process.stderr.write(`${guardTerminal(text)}\n`)),
    stdin: process.stdin,
    signal: this.controller.signal,
  });

  /** A commander action running `run`; `prefix` starts its error lines ("agent-console test"). */
  action(run: CommandRun, prefix = 'agent-console'): (...args: unknown[]) => Promise<void> {
    return async (...args) => {
      const command = args.at(-1) as Command;
      const options = command.optsWithGlobals<Options & { dataDir?: string; json?: boolean }>();
      const globals: GlobalOptions = {
        ...(typeof options.profile === 'string' ? { profile: options.profile } : {}),
        dataDir: options.dataDir ?? defaultDataDir(),
        json: options.json === true,
      };
      const io = this.io(globals.json);
      const operands = command.processedArgs.map((value: unknown) =>
        Array.isArray(value) ? (value as string[]) : value === undefined ? [] : [String(value)],
      );
      try {
        const code = await run(
          { globals, io, options, words: command.args, openCore: (o) => this.open(globals, io, o) },
          ...operands,
        );
        this.exitCode = code ?? EXIT.ok;
      } catch (error) {
        io.err(`${prefix}: ${describeError(error)}`);
        this.exitCode = exitCodeFor(error);
      } finally {
        this.mentionUpdate(io);
        await this.core?.close();
      }
    };
  }

  /**
   * One line on stderr when the desktop app has heard of a newer version (app-updates.ts): read
   * from the data folder, so it costs no request and never holds the command up.
   */
  private mentionUpdate(io: Io): void {
    if (!this.core || this.outputClosed) return;
    const notice = updateNotice(this.core.dataDir, APP_VERSION, this.core.settings);
    if (notice) io.err(notice);
  }

  private async open(
    globals: GlobalOptions,
    io: Io,
    options: Pick<CoreOptions, 'embeddedMock'> = {},
  ): Promise<ConsoleCore> {
    this.core = await ConsoleCore.open({
      dataDir: globals.dataDir,
      embeddedMock: options.embeddedMock ?? 'discover',
      ...keychainServiceFromEnvironment(),
      onWarning: io.err,
    });
    return this.core;
  }
}
