// `--labels labels.csv`: people's pass/fail verdicts on judged attempts, one a row —
// `case,agent,repeat,label` and an optional `note` (README, "Calibration"). Read before the run
// (a file that does not parse sends nothing), matched to the run's attempts after it.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { HumanLabel, Label } from '../../../shared/calibration';
import type { SuiteRunResult } from '../../../shared/suite-run';
import { CoreError } from '../core-error';

export interface LabelRow {
  line: number;
  /** A case's name as reports show it, or its key ("3", "2.14"). */
  case: string;
  /** An agent's slug or id as the suite names it; empty = the service's default agent. */
  agent: string;
  repeat: number;
  label: Label;
  note?: string;
}

const COLUMNS = ['case', 'agent', 'repeat', 'label'];

export async function readLabelsFile(path: string): Promise<LabelRow[]> {
  const name = basename(path);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CoreError(
      'BAD_INPUT',
      `${name}: cannot read the file (${(error as NodeJS.ErrnoException).code}).`,
    );
  }
  let records: { record: Record<string, string>; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      columns: true,
      skip_empty_lines: true,
      info: true,
      trim: true,
      // The note is optional on any row.
      relax_column_count: true,
    });
  } catch (error) {
    throw new CoreError('BAD_INPUT', `${name}: ${(error as Error).message}`);
  }
  const header = Object.keys(records[0]?.record ?? {});
  const missing = COLUMNS.filter((c) => !header.includes(c));
  if (records.length > 0 && missing.length > 0) {
    throw new CoreError(
      'BAD_INPUT',
      `${name} line 1: the header needs ${COLUMNS.join(',')} (and may add note).`,
    );
  }
  return records.map(({ record, info }) => {
    const where = `${name} line ${info.lines}`;
    const label = record.label?.toLowerCase();
    if (label !== 'pass' && label !== 'fail') {
      throw new CoreError('BAD_INPUT', `${where}: the label is pass or fail (got "${record.label ?? ''}").`);
    }
    const repeat = Number(record.repeat || '1');
    if (!Number.isInteger(repeat) || repeat < 1) {
      throw new CoreError(
        'BAD_INPUT',
        `${where}: the repeat is a whole number from 1 (got "${record.repeat}").`,
      );
    }
    return {
      line: info.lines,
      case: record.case ?? '',
      agent: record.agent ?? '',
      repeat,
      label,
      ...(record.note ? { note: record.note } : {}),
    };
  });
}

/** The rows matched to the run's judged attempts; each row that matches none, said with its line. */
export function resolveLabels(
  run: Pick<SuiteRunResult, 'suites'>,
  rows: readonly LabelRow[],
  file: string,
): { labels: HumanLabel[]; problems: string[] } {
  const labels: HumanLabel[] = [];
  const problems: string[] = [];
  const cells = run.suites.flatMap((s) => s.cells);
  for (const row of rows) {
    const matched = cells.filter(
      (c) =>
        (c.caseName === row.case || c.caseKey === row.case) &&
        (c.target.agent ?? '') === row.agent &&
        c.attempts.some(
          (a) =>
            a.repeat === row.repeat &&
            a.steps.some((s) => s.checks.some((k) => k.kind === 'judge' || k.kind === 'similar-to')),
        ),
    );
    if (matched.length === 0) {
      problems.push(
        `${basename(file)} line ${row.line}: no judged attempt of case "${row.case}" on agent "${row.agent}", repeat ${row.repeat}, in this run.`,
      );
    }
    for (const cell of matched) {
      labels.push({
        cellId: cell.id,
        repeat: row.repeat,
        label: row.label,
        ...(row.note ? { note: row.note } : {}),
      });
    }
  }
  return { labels, problems };
}
