// A run against the previous run of the same suite: cells that fail now and passed then (new
// failures), failed then and pass now (fixed), and cells whose median total time grew by more
// than a threshold (slower). Cells are matched by case key and target key; a cell in only one of
// the runs (a case added, or a single case run) is not compared.
import {
  targetLabel,
  type CellRef,
  type RunComparison,
  type StoredSuiteRun,
} from '../../../shared/suite-folder';
import type { CellResult } from '../../../shared/suite-run';

const DEFAULT_SLOWER_PERCENT = 50;

const keyOf = (cell: CellResult): string => `${cell.caseKey}@${cell.target.key}`;
const refOf = (cell: CellResult): CellRef => ({
  caseKey: cell.caseKey,
  caseName: cell.caseName,
  target: targetLabel(cell.target),
});

export function compareRuns(
  previous: StoredSuiteRun,
  current: Pick<StoredSuiteRun, 'cells'>,
  slowerPercent = DEFAULT_SLOWER_PERCENT,
): RunComparison {
  const before = new Map(previous.cells.map((c) => [keyOf(c), c]));
  const comparison: RunComparison = {
    previousRunId: previous.runId,
    previousAt: previous.startedAt,
    newFailures: [],
    fixed: [],
    slower: [],
    slowerPercent,
  };
  for (const cell of current.cells) {
    const old = before.get(keyOf(cell));
    if (!old) continue;
    if (cell.status === 'failed' && old.status === 'passed') comparison.newFailures.push(refOf(cell));
    if (cell.status === 'passed' && old.status === 'failed') comparison.fixed.push(refOf(cell));
    const beforeMs = old.stats.totalMs?.p50;
    const afterMs = cell.stats.totalMs?.p50;
    if (beforeMs !== undefined && afterMs !== undefined && beforeMs > 0) {
      const percent = Math.round(((afterMs - beforeMs) / beforeMs) * 100);
      if (percent > slowerPercent) comparison.slower.push({ ...refOf(cell), beforeMs, afterMs, percent });
    }
  }
  return comparison;
}
