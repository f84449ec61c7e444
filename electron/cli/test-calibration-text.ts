// What `agent-console test --labels` prints after a run: per judge, how far people's labels and
// the judge agree — agreement, Cohen's κ against the suite's min-kappa, the confusion table — and
// each disagreement with the reply, the judge's reason and the person's note.
import { describeKappa, type JudgeCalibration } from '../../shared/calibration';
import { quote } from '../core/suites/assertions';

const percent = (x: number): string => `${Math.round(x * 100)}%`;

export function calibrationText(judges: readonly JudgeCalibration[]): string {
  if (judges.length === 0) return 'Judge calibration: no label matched a judged attempt of this run.';
  const lines = ['Judge calibration against human labels:'];
  for (const judge of judges) {
    const c = judge.confusion;
    lines.push(
      `  ${judge.suite} › ${judge.kind} line ${judge.line} (${judge.grader || 'grader'}): ${judge.labelled} labelled, agreement ${percent(judge.agreement)}, ${describeKappa(judge)}`,
      '                 judge pass  judge fail',
      `    human pass   ${String(c.passPass).padStart(10)}  ${String(c.passFail).padStart(10)}`,
      `    human fail   ${String(c.failPass).padStart(10)}  ${String(c.failFail).padStart(10)}`,
    );
    for (const d of judge.disagreements) {
      lines.push(
        `    ≠ ${d.caseName} [${d.agent ?? 'default agent'}] #${d.repeat}: human ${d.human}, judge ${d.judge}`,
        `        reply ${quote(d.reply, 160)}`,
        `        judge: ${d.reason || '(no reason)'}${d.note ? `\n        note: ${d.note}` : ''}`,
      );
    }
  }
  return lines.join('\n');
}
