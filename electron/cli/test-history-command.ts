// `agent-console test runs` and `test diff <run> <run>`: the run history kept in the data folder
// (`core.suites`, as the Tests screen reads it) and what changed between any two runs — a kept
// run's id (or its start), or a results file of `--reporter json` from anywhere.
import type { RunListItem } from '../../shared/run-history';
import type { CommandContext } from './cli-session';
import { table, UsageError } from './output';
import { diffText } from './test-diff-text';

const when = (ms: number): string => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');

function row(run: RunListItem): Record<string, string> {
  const files = run.what.files;
  const commits = [...new Set(files.map((f) => f.commit?.slice(0, 12) ?? ''))].filter(Boolean);
  const t = run.totals;
  return {
    id: run.runId,
    when: when(run.startedAt),
    where: run.where.profiles.map((p) => (p.host ? `${p.name} (${p.host})` : p.name)).join(', '),
    what: `${files.length === 1 ? (files[0]?.name ?? '') : `${files.length} suite files`}${commits.length ? ` @ ${commits.join(', ')}` : ''}`,
    totals: `${t.passed} passed, ${t.failed} failed${t.cancelled ? `, ${t.cancelled} cancelled` : ''}`,
    duration: `${(run.durationMs / 1000).toFixed(1)} s`,
  };
}

export async function runsCommand(context: CommandContext): Promise<void> {
  const core = await context.openCore({ embeddedMock: 'none' });
  const runs = await core.suites.history();
  if (context.globals.json) {
    context.io.out(JSON.stringify(runs, null, 2));
    return;
  }
  if (runs.length === 0) {
    context.io.out('No kept runs yet: `agent-console test <files>` keeps every run.');
    return;
  }
  context.io.out(table(runs.map(row), ['id', 'when', 'where', 'what', 'totals', 'duration']));
}

export async function diffCommand(context: CommandContext, refs: string[]): Promise<void> {
  const [base, head] = refs;
  if (base === undefined || head === undefined || refs.length !== 2) {
    throw new UsageError(
      'Name two runs: `agent-console test diff <run> <run>` (ids from `test runs`, or results files).',
    );
  }
  const core = await context.openCore({ embeddedMock: 'none' });
  const diff = await core.suites.diff(base, head);
  const all = context.options.all === true;
  if (context.globals.json) {
    context.io.out(
      JSON.stringify(all ? diff : { ...diff, cells: diff.cells.filter((c) => c.changed) }, null, 2),
    );
    return;
  }
  context.io.out(diffText(diff, { all }));
}
