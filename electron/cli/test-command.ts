// `agent-console test <files or folders…>`: runs agent test suites through the core's suites
// (`core.suites`, as the Tests screen and the synthetic checks do) and reports for people and CI.
// Every run is kept in the history (`test runs`); with `--baseline` it is diffed against an earlier
// one, and `--fail-on regression` gates on what that diff calls a regression only.
// Exit 0 when every attempt passed (or, with --fail-on regression, when nothing failed that did
// not fail in the baseline), 1 when any failed (a regression), 2 on a usage error, a baseline that
// cannot be read, or a suite file that did not load (each problem printed with its file and line;
// the other files run), 130 when interrupted. The key comes from the profile's keychain entry, or
// for CI from AGENT_API_KEY with --base-url: never from an argument, where shell history and
// process lists would keep it.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ConsoleCore } from '../core/console-core';
import { checkCaCertFile, normaliseBaseUrl, type Profile } from '../core/profiles';
import { redactSecrets, rememberSecret } from '../core/redact';
import { describeProblem } from '../../shared/suite-run';
import type { LabelRow } from '../core/suites/labels-file';
import type { LoadedSuite } from '../core/suites/suite-loader';
import type { RunSuite } from '../core/suites/suite-runner';
import { Suites } from '../core/suites/suites';
import type { CommandContext } from './cli-session';
import { reportWaits } from './commands';
import { describeError, EXIT, exitCodeFor, UsageError } from './output';
import type { KeptRun, RunDiff, RunShard } from '../../shared/run-history';
import { diffRuns, gateRegressions, regressionsFirst } from '../core/suites/run-diff';
import type { FAIL_ON } from './test-reporters';
import {
  liveReporter,
  report,
  REPORTERS,
  summary,
  type ReporterName,
  type ReportInput,
} from './test-reporters';
import { guardText, guardValue } from '../core/output-guard';

function wholeNumber(raw: string | undefined, name: string, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1 || value > max) {
    throw new UsageError(`--${name} must be a whole number from 1 to ${max} (got "${raw}").`);
  }
  return value;
}

interface ReportTarget {
  name: ReporterName;
  /** Absent: stdout. */
  file?: string;
}

/**
 * `--reporter NAME` or `NAME:FILE`, as often as wanted; `--out FILE` is the file of the one report
 * named without one. At most one report goes to stdout (besides pretty, which is the progress).
 */
export function reportTargets(specs: readonly string[], out: string | undefined): ReportTarget[] {
  const targets = (specs.length > 0 ? specs : ['pretty']).map((spec): ReportTarget => {
    const at = spec.indexOf(':');
    const name = (at === -1 ? spec : spec.slice(0, at)) as ReporterName;
    if (!REPORTERS.includes(name)) {
      throw new UsageError(
        `--reporter must be one of ${REPORTERS.join(', ')}, alone or as NAME:FILE (got "${spec}").`,
      );
    }
    const file = at === -1 ? undefined : spec.slice(at + 1);
    if (file === '') throw new UsageError(`--reporter ${spec}: name the file after the colon.`);
    return file === undefined ? { name } : { name, file };
  });
  if (out !== undefined) {
    const unnamed = targets.filter((t) => t.file === undefined);
    if (unnamed.length !== 1)
      throw new UsageError('--out names the file of one --reporter; use NAME:FILE for several.');
    (unnamed[0] as ReportTarget).file = out;
  }
  const toStdout = targets.filter((t) => t.file === undefined && t.name !== 'pretty');
  if (toStdout.length > 1) {
    throw new UsageError(
      'Only one report can go to stdout: give the others a file (--reporter junit:results.xml).',
    );
  }
  return targets;
}

/** Each report named, to its file or to stdout (pretty to stdout is the progress, written already). */
export async function writeReports(
  context: CommandContext,
  targets: readonly ReportTarget[],
  input: ReportInput,
): Promise<void> {
  for (const target of targets) {
    if (target.name === 'pretty' && target.file === undefined) continue;
    const text = await report(input, target.name);
    if (target.file === undefined) {
      context.io.out(text.endsWith('\n') ? text.slice(0, -1) : text);
      continue;
    }
    await mkdir(dirname(target.file), { recursive: true });
    await writeFile(target.file, guardText(text));
  }
}

/** A baseline that names nothing kept yet (`last` on a first run): every cell is new. */
const noBaseline = (): KeptRun => ({
  runId: 'none',
  status: 'passed',
  startedAt: 0,
  durationMs: 0,
  suites: [],
  totals: { attempts: 0, passed: 0, failed: 0, cancelled: 0, skipped: 0 },
  rateLimited: 0,
  where: { profiles: [] },
  what: { files: [] },
});

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
  reporter?: string[];
  out?: string;
  reportUrl?: string;
  baseline?: string;
  failOn?: (typeof FAIL_ON)[number];
  keepRuns?: string;
  keepDays?: string;
  repeat?: string;
  concurrency?: string;
  bail?: boolean;
  baseUrl?: string;
  ca?: string;
  sample?: string;
  seed?: string;
  shard?: string;
  labels?: string;
}

/**
 * `--labels`: people's verdicts matched to the run's judged attempts and kept with it, then each
 * judge's agreement with them; false when a judge is below its suite's min-kappa. A label that
 * matches nothing is a usage error, said after the run is kept.
 */
async function calibrateRun(
  core: ConsoleCore,
  run: KeptRun,
  file: string,
  rows: LabelRow[],
  human: (text: string) => void,
  err: (text: string) => void,
): Promise<{ trusted: boolean; problems: number }> {
  const { resolveLabels } = await import('../core/suites/labels-file');
  const { calibrate } = await import('../../shared/calibration');
  const { calibrationText } = await import('./test-calibration-text');
  const { labels, problems } = resolveLabels(run, rows, file);
  for (const problem of problems) err(`agent-console test: ${problem}`);
  await core.suites.keep({ ...run, labels });
  const judges = calibrate(run, labels);
  human(calibrationText(judges));
  return { trusted: judges.every((j) => j.trusted), problems: problems.length };
}

/**
 * `--sample N --seed S`, then `--shard i/n`: the cases this process runs of the files loaded (a
 * sample first, so every shard slices the same sample), and the shard it is, if one.
 */
async function sliceRun(
  loaded: LoadedSuite[],
  options: TestOptions,
): Promise<{ suites: LoadedSuite[]; shard?: RunShard }> {
  const sample = wholeNumber(options.sample, 'sample', 10_000_000);
  if (options.seed !== undefined && sample === undefined) throw new UsageError('--seed goes with --sample.');
  const seed = options.seed === undefined ? 1 : Number(options.seed);
  if (!Number.isSafeInteger(seed) || seed < 0) {
    throw new UsageError(`--seed must be a whole number, 0 or more (got "${options.seed}").`);
  }
  const slices = await import('../core/suites/run-slice');
  let suites = sample !== undefined ? slices.sampleCases(loaded, sample, seed) : loaded;
  if (options.shard === undefined) return { suites };
  const shard = slices.parseShard(options.shard);
  if (!shard) throw new UsageError(`--shard is i/n, 1 ≤ i ≤ n ≤ 1000, e.g. 2/4 (got "${options.shard}").`);
  const files = suites.map((s) => s.file);
  suites = slices.shardCases(suites, shard.index, shard.count);
  return { suites, shard: { ...shard, files } };
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
    const targets = reportTargets(options.reporter ?? [], options.out);
    const failOn = options.failOn ?? 'any-failure';
    if (failOn === 'regression' && options.baseline === undefined) {
      throw new UsageError('--fail-on regression needs --baseline: last, a run id, or a results.json.');
    }
    if (options.reportUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(options.reportUrl)) {
      throw new UsageError(`--report-url must be an http(s) address (got "${options.reportUrl}").`);
    }
    const keep = wholeNumber(options.keepRuns, 'keep-runs', 100_000);
    const keepDays = wholeNumber(options.keepDays, 'keep-days', 36_500);
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
    // A labels file that does not parse sends nothing.
    const labelRows =
      options.labels !== undefined
        ? await (await import('../core/suites/labels-file')).readLabelsFile(options.labels)
        : undefined;
    const loaded = await Suites.load(positionals);
    const { broken } = loaded;
    const { suites, shard } = await sliceRun(loaded.suites, options);
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

    // Resolved before anything is sent: a baseline that cannot be read is a usage error.
    let baseline: KeptRun | undefined;
    if (options.baseline !== undefined) {
      baseline = await opened.suites.baseline(options.baseline, runs);
      if (!baseline) {
        err('No earlier kept run of these suite files on these profiles: every failure counts as new.');
        baseline = noBaseline();
      }
    }

    // Progress for people: stdout, unless stdout carries a report itself.
    const stdoutReport = targets.find((t) => t.file === undefined && t.name !== 'pretty');
    const human = stdoutReport ? err : (text: string) => context.io.out(redactSecrets(text));
    const profiles = [
      ...new Map(runs.flatMap((r) => r.targets.map((t) => [t.profile.id, t.profile]))).values(),
    ];
    const stopWaits = profiles.map((profile) => reportWaits(opened, profile, { err }));
    let result;
    try {
      result = await opened.suites.runAndKeep(runs, {
        ...(concurrency !== undefined ? { concurrency } : {}),
        retention: {
          ...(keep !== undefined ? { keep } : {}),
          ...(keepDays !== undefined ? { maxAgeDays: keepDays } : {}),
        },
        ...(repeat !== undefined ? { repeat } : {}),
        bail: options.bail === true,
        broken,
        ...(shard ? { shard } : {}),
        signal,
        onEvent: liveReporter(human),
      });
    } finally {
      for (const stop of stopWaits) stop();
    }
    const diff: RunDiff | undefined = baseline && diffRuns(baseline, result);
    // Reports are made from guarded values (an XML or JSON escape would hide a secret from a mask
    // over the text), then guarded as text once more on their way out.
    const input = {
      run: guardValue(regressionsFirst(result, diff)),
      ...(diff ? { diff: guardValue(diff) } : {}),
      ...(options.reportUrl !== undefined ? { reportUrl: options.reportUrl } : {}),
    };
    await writeReports(context, targets, input);
    human(summary(result, diff));
    for (const target of targets) {
      if (target.file !== undefined) human(`Wrote the ${target.name} report to ${target.file}.`);
    }
    const calibration =
      labelRows && options.labels !== undefined
        ? await calibrateRun(opened, result, options.labels, labelRows, human, err)
        : undefined;
    human(`Kept as run ${result.runId} (\`agent-console test runs\`).`);
    if (result.status === 'cancelled') return EXIT.interrupted;
    // A file that does not load is a mistake in what the run was given, not an agent's failure: 2,
    // as for any usage error — after the files beside it have run and the report lists it.
    if (result.broken?.length || calibration?.problems) return EXIT.usage;
    // A judge people do not agree with cannot pass the run, whatever it said.
    if (calibration && !calibration.trusted) {
      human('A judge is below its suite’s min-kappa: the run is not trustworthy.');
      return EXIT.failure;
    }
    if (failOn === 'regression' && diff) return gateRegressions(diff).length > 0 ? EXIT.failure : EXIT.ok;
    return result.status === 'passed' ? EXIT.ok : EXIT.failure;
  } catch (error) {
    err(`agent-console test: ${describeError(error)}`);
    const code = exitCodeFor(error);
    // Anything the runner did not turn into a failed attempt is a problem with the invocation.
    return code === EXIT.failure ? EXIT.usage : code;
  }
}
