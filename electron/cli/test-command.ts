// `agent-console test <files or folders…>`: runs agent test suites through the core's suites
// (`core.suites`, as the Tests screen and the synthetic checks do) and reports for people and CI.
// Exit 0 when every attempt passed, 1 when any failed or a suite file did not load (each problem
// printed with its file and line; the other files run), 2 on a usage error, 130 when interrupted. The key comes from the profile's keychain entry, or for CI
// from AGENT_API_KEY with --base-url: never from an argument, where shell history and process
// lists would keep it.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ConsoleCore } from '../core/console-core';
import { checkCaCertFile, normaliseBaseUrl, type Profile } from '../core/profiles';
import { redactSecrets, rememberSecret } from '../core/redact';
import { describeProblem } from '../../shared/suite-run';
import type { LoadedSuite } from '../core/suites/suite-loader';
import type { RunSuite } from '../core/suites/suite-runner';
import { Suites } from '../core/suites/suites';
import type { CommandContext } from './cli-session';
import { reportWaits } from './commands';
import { describeError, EXIT, exitCodeFor, UsageError } from './output';
import { liveReporter, report, REPORTERS, summary, type ReporterName } from './test-reporters';
import { guardText, guardValue } from '../core/output-guard';

function wholeNumber(raw: string | undefined, name: string, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1 || value > max) {
    throw new UsageError(`--${name} must be a whole number from 1 to ${max} (got "${raw}").`);
  }
  return value;
}

/** One line per declared value that is not masked, once per variable. */
function loadWarnings(suites: readonly LoadedSuite[]): string[] {
  return [...new Set(suites.flatMap((s) => s.warnings ?? []))];
}

/** AGENT_API_KEY + --base-url: a session-only key and a profile that exist for this run only. */
async function environmentProfile(
  core: ConsoleCore,
  baseUrl: string,
  ca: string | undefined,
): Promise<Profile> {
  const secret = process.env.AGENT_API_KEY?.trim();
  if (!secret) throw new UsageError('--base-url needs the key in the AGENT_API_KEY environment variable.');
  // Masked from here on, even where the vault refuses it as malformed.
  rememberSecret(secret);
  const key = await core.vault.add({ name: 'AGENT_API_KEY', secret, sessionOnly: true });
  return {
    id: 'agent-api-key',
    name: 'AGENT_API_KEY',
    baseUrl: normaliseBaseUrl(baseUrl),
    keyId: key.id,
    ...(ca ? { caCertPath: checkCaCertFile(ca) } : {}),
    builtIn: false,
  };
}

/** `agent-console test`'s own options (the global --profile and --data-dir come with them). */
export interface TestOptions {
  profile?: string;
  agent?: string[];
  reporter?: string;
  out?: string;
  repeat?: string;
  concurrency?: string;
  bail?: boolean;
  baseUrl?: string;
  ca?: string;
}

export async function testCommand(context: CommandContext, positionals: string[]): Promise<number> {
  // Whatever this command writes passes the redactor once more: the run's results are masked
  // already, and this keeps it so for anything a report or an error message adds.
  const err = (text: string): void => context.io.err(redactSecrets(text));
  const options = context.options as TestOptions;
  const { signal } = context.io;
  try {
    if (positionals.length === 0)
      throw new UsageError('Name the suite files or folders to run. See `agent-console test --help`.');
    const reporter = (options.reporter ?? 'pretty') as ReporterName;
    if (!REPORTERS.includes(reporter)) {
      throw new UsageError(`--reporter must be one of ${REPORTERS.join(', ')} (got "${options.reporter}").`);
    }
    const repeat = wholeNumber(options.repeat, 'repeat', 1000);
    const concurrency = wholeNumber(options.concurrency, 'concurrency', 64);
    const baseUrl = options.baseUrl;
    if (baseUrl !== undefined && options.profile !== undefined) {
      throw new UsageError('Use either --profile or --base-url (with AGENT_API_KEY), not both.');
    }
    if (baseUrl === undefined && options.ca !== undefined) throw new UsageError('--ca goes with --base-url.');
    if (baseUrl === undefined && process.env.AGENT_API_KEY) {
      throw new UsageError(
        'AGENT_API_KEY is set but --base-url is not: say which service the key is for (or unset it to use a profile).',
      );
    }
    // Every suite file loads (and its declared values are remembered as secrets) before the core
    // opens: a file that may not run sends nothing. It fails the run, every problem at once with
    // its line, and the files beside it run (the rule of core.suites, as on the Tests screen).
    const { suites, broken } = await Suites.load(positionals);
    for (const file of broken)
      for (const problem of file.problems) err(`✗ ${describeProblem(file.file, problem)}`);
    for (const warning of loadWarnings(suites)) err(warning);

    // A run against --base-url needs no mock.
    const opened = await context.openCore({ embeddedMock: baseUrl !== undefined ? 'none' : 'discover' });
    const resolveProfile = (name?: string): Profile => {
      try {
        const profile = opened.profile(name);
        opened.client(profile); // a profile without a usable key is the user's to fix: exit 2
        return profile;
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
    };
    const only =
      baseUrl !== undefined
        ? [await environmentProfile(opened, baseUrl, options.ca)]
        : options.profile !== undefined
          ? [resolveProfile(options.profile)]
          : undefined;
    const runs: RunSuite[] = suites.map((suite) => ({
      suite,
      targets: opened.suites.targets(suite, { resolveProfile, profiles: only, agents: options.agent }),
    }));

    // Progress for people: stdout, unless stdout carries the report itself.
    const toStdout = reporter === 'pretty' || options.out !== undefined;
    const human = toStdout ? (text: string) => context.io.out(redactSecrets(text)) : err;
    const profiles = [
      ...new Map(runs.flatMap((r) => r.targets.map((t) => [t.profile.id, t.profile]))).values(),
    ];
    const stopWaits = profiles.map((profile) => reportWaits(opened, profile, { err }));
    let result;
    try {
      result = await opened.suites.run(runs, {
        ...(concurrency !== undefined ? { concurrency } : {}),
        ...(repeat !== undefined ? { repeat } : {}),
        bail: options.bail === true,
        broken,
        signal,
        onEvent: liveReporter(human),
      });
    } finally {
      for (const stop of stopWaits) stop();
    }
    if (reporter === 'pretty') {
      human(summary(result));
    } else {
      // The report is made from guarded values (an XML or JSON escape would hide a secret from a
      // mask over the text), then guarded as text once more on its way out.
      const text = report(guardValue(result), reporter);
      if (options.out !== undefined) {
        await mkdir(dirname(options.out), { recursive: true });
        await writeFile(options.out, guardText(text));
        human(summary(result));
        human(`Wrote the ${reporter} report to ${options.out}.`);
      } else {
        context.io.out(text.endsWith('\n') ? text.slice(0, -1) : text);
        human(summary(result));
      }
    }
    if (result.status === 'cancelled') return EXIT.interrupted;
    // A file that does not load is a mistake in what the run was given, not an agent's failure: 2,
    // as for any usage error — after the files beside it have run and the report lists it.
    if (result.broken?.length) return EXIT.usage;
    return result.status === 'passed' ? EXIT.ok : EXIT.failure;
  } catch (error) {
    err(`agent-console test: ${describeError(error)}`);
    const code = exitCodeFor(error);
    // Anything the runner did not turn into a failed attempt is a problem with the invocation.
    return code === EXIT.failure ? EXIT.usage : code;
  }
}
