// Can a judge be trusted? People label judged attempts pass or fail by hand (a labels CSV, or the
// Tests screen), and each judge — one judged assertion of a suite file, graded on every row and
// repeat of its case — is compared with them: agreement, Cohen's κ, the confusion table, and each
// disagreement with the reply, the judge's reason and the person's note. A suite's `min-kappa`
// marks a judge below it, and so the run, as not trustworthy (docs/architecture.md, "Calibration").
import type { CellResult, CheckResult, SuiteRunResult } from './suite-run';

export type Label = 'pass' | 'fail';

/** A person's verdict on one attempt of a judged cell. */
export interface HumanLabel {
  cellId: string;
  repeat: number;
  label: Label;
  note?: string;
}

/** Human verdict × judge verdict: `passFail` is "the person said pass, the judge fail". */
export interface Confusion {
  passPass: number;
  passFail: number;
  failPass: number;
  failFail: number;
}

interface Disagreement {
  cellId: string;
  caseName: string;
  agent: string | undefined;
  repeat: number;
  human: Label;
  judge: Label;
  reply: string;
  reason: string;
  note?: string;
}

export interface JudgeCalibration {
  suite: string;
  file: string;
  /** The judged assertion's line: one judge per assertion. */
  line: number;
  kind: string;
  grader: string;
  labelled: number;
  /** Share of labelled attempts where the person and the judge agree, 0 to 1. */
  agreement: number;
  /** Cohen's κ; null when chance agreement is 1 (everyone said the same one thing). */
  kappa: number | null;
  confusion: Confusion;
  minKappa?: number;
  /** False when the suite sets `min-kappa` and κ is below it. */
  trusted: boolean;
  disagreements: Disagreement[];
}

/** A kept run's labels and each labelled judge's agreement with them (the Tests screen's panel). */
export interface RunCalibration {
  runId: string;
  /** Attempts of the run with a judged check: what people can label. */
  judgedAttempts: number;
  labels: HumanLabel[];
  judges: JudgeCalibration[];
}

/** "κ 0.69, min-kappa 0.7: not trustworthy" — a judge's κ as the CLI and the Tests screen say it. */
export function describeKappa(judge: JudgeCalibration): string {
  const kappa = judge.kappa === null ? 'κ undefined (one label only)' : `κ ${judge.kappa.toFixed(2)}`;
  if (judge.minKappa === undefined) return kappa;
  return `${kappa}, min-kappa ${judge.minKappa}: ${judge.trusted ? 'trusted' : 'NOT TRUSTWORTHY'}`;
}

/**
 * Cohen's κ of a 2×2 table: (po − pe) / (1 − pe), po the observed agreement, pe the agreement
 * expected by chance from each side's own pass rate. Null when pe is 1: κ is undefined there.
 */
export function cohensKappa(c: Confusion): number | null {
  const n = c.passPass + c.passFail + c.failPass + c.failFail;
  if (n === 0) return null;
  const po = (c.passPass + c.failFail) / n;
  const humanPass = (c.passPass + c.passFail) / n;
  const judgePass = (c.passPass + c.failPass) / n;
  const pe = humanPass * judgePass + (1 - humanPass) * (1 - judgePass);
  return pe === 1 ? null : (po - pe) / (1 - pe);
}

const isJudged = (c: CheckResult): boolean => c.kind === 'judge' || c.kind === 'similar-to';

/** The judged checks of an attempt, with the judge's own verdict (its check passed or failed). */
function judgedChecks(cell: CellResult, repeat: number): CheckResult[] {
  const attempt = cell.attempts.find((a) => a.repeat === repeat);
  return attempt?.steps.flatMap((s) => s.checks.filter(isJudged)) ?? [];
}

function replyOf(cell: CellResult, repeat: number, line: number): string {
  const attempt = cell.attempts.find((a) => a.repeat === repeat);
  return attempt?.steps.find((s) => s.checks.some((c) => c.line === line && isJudged(c)))?.reply ?? '';
}

/** Every judge of the run that has a label, compared with its labels. */
export function calibrate(
  run: Pick<SuiteRunResult, 'suites'> & { suites: { minKappa?: number }[] },
  labels: readonly HumanLabel[],
): JudgeCalibration[] {
  const out = new Map<string, JudgeCalibration>();
  const byCell = new Map<string, HumanLabel[]>();
  for (const label of labels) byCell.set(label.cellId, [...(byCell.get(label.cellId) ?? []), label]);
  for (const suite of run.suites) {
    for (const cell of suite.cells) {
      for (const label of byCell.get(cell.id) ?? []) {
        for (const check of judgedChecks(cell, label.repeat)) {
          const key = `${suite.file}:${check.line}`;
          const judge = out.get(key) ?? {
            suite: suite.name,
            file: suite.file,
            line: check.line,
            kind: check.kind,
            grader: check.verdict?.agent ?? '',
            labelled: 0,
            agreement: 0,
            kappa: null,
            confusion: { passPass: 0, passFail: 0, failPass: 0, failFail: 0 },
            ...(suite.minKappa !== undefined ? { minKappa: suite.minKappa } : {}),
            trusted: true,
            disagreements: [],
          };
          judge.grader ||= check.verdict?.agent ?? '';
          const said: Label = check.passed ? 'pass' : 'fail';
          judge.labelled++;
          const cellOf = `${label.label === 'pass' ? 'pass' : 'fail'}${said === 'pass' ? 'Pass' : 'Fail'}`;
          judge.confusion[cellOf as keyof Confusion]++;
          if (said !== label.label) {
            judge.disagreements.push({
              cellId: cell.id,
              caseName: cell.caseName,
              agent: cell.target.agent,
              repeat: label.repeat,
              human: label.label,
              judge: said,
              reply: replyOf(cell, label.repeat, check.line),
              reason: check.verdict?.reason ?? check.actual,
              ...(label.note ? { note: label.note } : {}),
            });
          }
          out.set(key, judge);
        }
      }
    }
  }
  for (const judge of out.values()) {
    const c = judge.confusion;
    judge.agreement = (c.passPass + c.failFail) / judge.labelled;
    judge.kappa = cohensKappa(c);
    judge.trusted = judge.minKappa === undefined || judge.kappa === null || judge.kappa >= judge.minKappa;
  }
  return [...out.values()];
}
