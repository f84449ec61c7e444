// Can the judges be trusted? For a kept run (the one on screen, else the newest kept), each judge
// people labelled: agreement, Cohen's κ against the suite's min-kappa, the confusion table, and
// each disagreement with the reply, the judge's reason and the person's note (shared/calibration.ts).
import { describeKappa, type JudgeCalibration } from '../../../shared/calibration';
import { useRunCalibration } from '../../data/suites';

function Judge({ judge }: { judge: JudgeCalibration }) {
  const c = judge.confusion;
  return (
    <article className="tests-judge" aria-label={`Judge at line ${judge.line}`}>
      <h3>
        {judge.suite} › <code>{judge.kind}</code> line {judge.line}{' '}
        <span className="muted">graded by {judge.grader || 'its grader'}</span>
      </h3>
      <p className={judge.trusted ? undefined : 'tests-compare-bad'} data-testid="judge-agreement">
        {judge.labelled} labelled · agreement {Math.round(judge.agreement * 100)}% · {describeKappa(judge)}
      </p>
      <table className="tests-confusion" aria-label="Confusion table">
        <thead>
          <tr>
            <td />
            <th scope="col">Judge pass</th>
            <th scope="col">Judge fail</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">Human pass</th>
            <td>{c.passPass}</td>
            <td>{c.passFail}</td>
          </tr>
          <tr>
            <th scope="row">Human fail</th>
            <td>{c.failPass}</td>
            <td>{c.failFail}</td>
          </tr>
        </tbody>
      </table>
      {judge.disagreements.length > 0 ? (
        <ul className="tests-disagreements" aria-label="Disagreements">
          {judge.disagreements.map((d) => (
            <li key={`${d.cellId}#${d.repeat}`}>
              <strong>{d.caseName}</strong>{' '}
              <span className="muted">
                {d.agent ?? 'default agent'} #{d.repeat}
              </span>
              : human {d.human}, judge {d.judge}
              <div className="tests-disagreement-text">Reply: {d.reply || '(no reply text)'}</div>
              <div className="tests-disagreement-text">Judge: {d.reason || '(no reason)'}</div>
              {d.note ? <div className="tests-disagreement-text">Note: {d.note}</div> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </article>
  );
}

export function CalibrationPanel({ runId }: { runId: string | undefined }) {
  const { data } = useRunCalibration(runId);
  if (!data || data.judgedAttempts === 0) return null;
  return (
    <section className="card tests-calibration" aria-label="Judge calibration">
      <h2>Judge calibration</h2>
      {data.judges.length === 0 ? (
        <p className="muted">
          Open a judged cell and label it pass or fail: each judge is then compared with your labels.
        </p>
      ) : (
        data.judges.map((judge) => <Judge key={`${judge.file}:${judge.line}`} judge={judge} />)
      )}
    </section>
  );
}
