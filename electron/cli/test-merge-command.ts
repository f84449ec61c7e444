// `agent-console test merge <results.json…>`: the shards of one run (`test --shard i/n` on n
// machines, each with `--reporter json`) joined into one run, kept in the history and reported as
// if it had run in one place (run-merge.ts). Every shard must be there: a missing one is refused,
// since the joined run would pass without its cases. Exit codes as `test`'s.
import { redactSecrets } from '../core/redact';
import { guardValue } from '../core/output-guard';
import { missingShards } from '../core/suites/run-merge';
import type { CommandContext } from './cli-session';
import { EXIT, UsageError } from './output';
import { reportTargets, writeReports } from './test-command';
import { summary } from './test-reporters';

export async function mergeCommand(context: CommandContext, files: string[]): Promise<number> {
  const options = context.options as { reporter?: string[]; out?: string };
  const targets = reportTargets(options.reporter ?? [], options.out);
  const { readResultsFile } = await import('../core/suites/run-results-file');
  const { mergeRuns } = await import('../core/suites/run-merge');
  const shards = await Promise.all(files.map((file) => readResultsFile(file)));
  const missing = missingShards(shards);
  if (missing.length > 0) {
    const count = shards[0]?.shard?.count ?? 0;
    throw new UsageError(
      `Missing ${missing.map((i) => `shard ${i}/${count}`).join(', ')}: every shard's results are needed to make the run.`,
    );
  }
  const run = mergeRuns(shards);
  const core = await context.openCore({ embeddedMock: 'none' });
  await core.suites.keep(run);
  const stdoutReport = targets.find((t) => t.file === undefined && t.name !== 'pretty');
  const human = (text: string): void => (stdoutReport ? context.io.err : context.io.out)(redactSecrets(text));
  await writeReports(context, targets, { run: guardValue(run) });
  human(summary(run));
  for (const target of targets) {
    if (target.file !== undefined) human(`Wrote the ${target.name} report to ${target.file}.`);
  }
  human(`${shards.length} shards kept as run ${run.runId} (\`agent-console test runs\`).`);
  if (run.broken?.length) return EXIT.usage;
  return run.status === 'passed' ? EXIT.ok : EXIT.failure;
}
