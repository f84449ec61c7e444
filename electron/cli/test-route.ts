// `agent-console test` on the one commander tree: running suites (with a baseline gate and several
// reports at once), and its history — `test runs`, `test diff <run> <run>`.
import { Option, type Command } from 'commander';
import { DEFAULT_CONCURRENCY } from '../core/suites/suite-runner';
import type { CliSession } from './cli-session';
import { collect, offers } from './route-options';
import { FAIL_ON, REPORTERS } from './test-reporters';

/** `--reporter`, as `test` and `test merge` both take it. */
const reporterOption = (): Option =>
  offers(
    new Option(
      '--reporter <reporter>',
      'a report: NAME (to stdout) or NAME:FILE; repeatable (default: pretty)',
    ).argParser(collect),
    REPORTERS,
  );

export function testRoute(program: Command, session: CliSession): void {
  const test = program
    .command('test')
    .description(
      'run agent test suites (YAML); exit 0 when all pass, 1 when any fails (or, with --fail-on regression, when any fails that did not fail in the baseline), 2 on a usage error or a suite file that does not load',
    )
    .argument('[files...]', 'suite files, or folders of *.yaml and *.yml files')
    .option('--agent <slug>', "run against this agent instead of the suites' own (repeatable)", collect)
    .addOption(reporterOption())
    .option('--out <file>', 'write the one report named by --reporter to FILE (progress stays on stdout)')
    .option(
      '--report-url <url>',
      "the HTML report's address (a CI artifact), linked from the markdown report",
    )
    .option(
      '--baseline <run>',
      'compare with `last` (the last kept run of these suites here), a run id, or a results.json',
    )
    .addOption(
      new Option(
        '--fail-on <what>',
        'exit 1 for any failure (default) or only for regressions against --baseline',
      ).choices(FAIL_ON),
    )
    .option('--repeat <n>', 'run every case N times (p50/p95 timings, flakiness)')
    .option(
      '--concurrency <n>',
      `attempts in flight at once (default ${DEFAULT_CONCURRENCY}; the key's rate limit still paces them)`,
    )
    .option('--bail', 'stop starting attempts after the first failure')
    .option('--sample <n>', 'run a sample of N of the expanded cases (reproducible: see --seed)')
    .option('--seed <s>', 'the seed of --sample (default 1): the same files, N and seed give the same cases')
    .option(
      '--labels <file>',
      "people's pass/fail labels of judged attempts (case,agent,repeat,label[,note]): each judge's agreement and Cohen's κ",
    )
    .option(
      '--shard <i/n>',
      'run the i-th of n deterministic slices of the cases (CI matrix; join with `test merge`)',
    )
    .option('--keep-runs <n>', 'keep the newest N runs in the history (default: settings, else 200)')
    .option('--keep-days <n>', 'keep runs for N days (default: settings, else 90)')
    .option(
      '--base-url <url>',
      'with AGENT_API_KEY in the environment: a service without a saved profile (CI)',
    )
    .option('--ca <file>', 'with --base-url: a PEM CA certificate to trust')
    .addHelpText(
      'after',
      "\n--profile runs against that profile (default: each suite's profiles, else the active one).\n" +
        "The key comes from the profile's keychain entry, or with --base-url from AGENT_API_KEY: never from an argument.\n" +
        'Exit codes: 0 passed (or no regression, with --fail-on regression), 1 failed (a regression),\n' +
        '2 a usage error, a baseline that cannot be read, or a suite file that does not load; 130 interrupted.',
    )
    // Suites (YAML, JSON Schema) are loaded only for the command that uses them.
    .action(
      session.action(
        async (context, files) => (await import('./test-command')).testCommand(context, files),
        'agent-console test',
      ),
    );
  test
    .command('import-har')
    .description("write a HAR file's chats as new suite files, one case per chat (nothing is sent)")
    .argument('<file>', "the HAR file (a browser's export, or the Log's)")
    .option('--dir <folder>', 'the folder to write the suite files in (default: the current one)')
    .action(
      session.action(
        async (context, file) => (await import('./import-har-command')).importHarCommand(context, file),
        'agent-console test import-har',
      ),
    );
  test
    .command('merge')
    .description("join the shards' --reporter json results into one run: kept, and reported as one")
    .argument('<results...>', 'the results.json of every shard (--shard i/n)')
    .addOption(reporterOption())
    .option('--out <file>', 'write the one report named by --reporter to FILE')
    .action(
      session.action(
        async (context, files) => (await import('./test-merge-command')).mergeCommand(context, files),
        'agent-console test merge',
      ),
    );
  test
    .command('runs')
    .description('the kept runs, newest first: id, when, where, what (suite files, git commit), totals')
    .action(
      session.action(
        async (context) => (await import('./test-history-command')).runsCommand(context),
        'agent-console test runs',
      ),
    );
  test
    .command('diff')
    .description('what changed between two runs (ids from `test runs`, or results.json files)')
    .argument('<runs...>', 'the base run, then the run to compare with it')
    .option('--all', 'show unchanged cells too')
    .action(
      session.action(
        async (context, refs) => (await import('./test-history-command')).diffCommand(context, refs),
        'agent-console test diff',
      ),
    );
}
