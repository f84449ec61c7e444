// People's labels on a kept run's judged attempts, from the Tests screen: each one replaces the
// attempt's earlier label and is written into the run's file, so it is kept with the run (across
// a restart) and calibrates its judges like `agent-console test --labels` (shared/calibration.ts).
import { calibrate, type HumanLabel, type RunCalibration } from '../../../shared/calibration';
import type { KeptRun } from '../../../shared/run-history';
import type { AttemptResult } from '../../../shared/suite-run';
import { CoreError } from '../core-error';
import type { RunStore } from './run-store';

const judged = (attempt: AttemptResult): boolean =>
  attempt.steps.some((s) => s.checks.some((c) => c.kind === 'judge' || c.kind === 'similar-to'));

function calibrationOf(run: KeptRun): RunCalibration {
  const labels = run.labels ?? [];
  const judgedAttempts = run.suites.flatMap((s) => s.cells.flatMap((c) => c.attempts.filter(judged))).length;
  return { runId: run.runId, judgedAttempts, labels, judges: calibrate(run, labels) };
}

async function kept(store: RunStore, runId: string): Promise<KeptRun> {
  const run = await store.get(runId);
  if (!run) throw new CoreError('NOT_FOUND', `No kept run ${runId}.`);
  return run;
}

/** A kept run's labels and each labelled judge's agreement with them; null when no such run is kept. */
export async function runCalibration(store: RunStore, runId: string): Promise<RunCalibration | null> {
  const run = await store.get(runId);
  return run ? calibrationOf(run) : null;
}

export async function labelAttempt(
  store: RunStore,
  runId: string,
  label: HumanLabel,
): Promise<RunCalibration> {
  const run = await kept(store, runId);
  const cell = run.suites.flatMap((s) => s.cells).find((c) => c.id === label.cellId);
  const attempt = cell?.attempts.find((a) => a.repeat === label.repeat);
  if (!attempt || !judged(attempt)) {
    throw new CoreError('NOT_FOUND', `The run has no judged attempt ${label.repeat} of that cell to label.`);
  }
  const others = (run.labels ?? []).filter((l) => !(l.cellId === label.cellId && l.repeat === label.repeat));
  const labelled: KeptRun = { ...run, labels: [...others, label] };
  await store.save(labelled);
  return calibrationOf(labelled);
}
