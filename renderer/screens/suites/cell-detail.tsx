// One cell opened: each attempt's turns with what was sent, the reply, each assertion's expected
// and actual, and the playground's stream inspector over the step's kept frames and timings.
import { useEffect, useMemo, useRef } from 'react';
import type { AttemptResult, CellResult, StepResult } from '../../../shared/suite-run';
import { useRunCalibration } from '../../data/suites';
import { targetLabel } from '../../../shared/suite-folder';
import '../playground/playground.css';
import type { ReplyTurn } from '../playground/playground-store';
import { StreamBuffer } from '../playground/stream-buffer';
import { StreamInspector } from '../playground/stream-inspector';
import { LabelForm } from './label-form';
import { openCell } from './tests-store';

/** The step as the inspector reads a playground reply: its request, timing, frames and chunks. */
function asReply(
  id: string,
  step: StepResult,
  agent: string | undefined,
): { reply: ReplyTurn; buffer: StreamBuffer } {
  const buffer = new StreamBuffer();
  let previous = 0;
  const chunks = step.frames
    .filter((f) => !f.comment && f.data !== '[DONE]')
    .map((f, index) => {
      let content = '';
      try {
        const parsed = JSON.parse(f.data) as { content?: unknown };
        content = typeof parsed.content === 'string' ? parsed.content : '';
      } catch {
        content = '';
      }
      const chunk = { index, content, atMs: f.atMs, gapMs: f.atMs - previous };
      previous = f.atMs;
      return chunk;
    });
  if (step.streamed) buffer.append(chunks);
  else buffer.setText(step.reply);
  const reply: ReplyTurn = {
    role: 'agent',
    id,
    request: { message: step.message, agent, stream: step.streamed },
    status: step.state === 'cancelled' ? 'stopped' : step.error ? 'failed' : 'done',
    requestId: step.requestId,
    timing: {
      ...(step.ttftMs !== undefined ? { firstChunkMs: step.ttftMs } : {}),
      ...(step.totalMs !== undefined ? { totalMs: step.totalMs } : {}),
    },
    ...(step.streamed ? { frames: step.frames } : {}),
    chunkCount: step.chunks,
    attempts: 1,
  };
  return { reply, buffer };
}

function Step({ id, step, agent }: { id: string; step: StepResult; agent: string | undefined }) {
  const { reply, buffer } = useMemo(() => asReply(id, step, agent), [id, step, agent]);
  return (
    <div className="tests-step">
      <div className="tests-step-main">
        <p>
          <strong>Turn {step.index + 1}</strong> <span className="muted">line {step.line}</span>
          {step.state !== 'done' ? <span className="badge badge-muted">{step.state}</span> : null}
          {step.status ? <span className="badge badge-muted">HTTP {step.status}</span> : null}
          {step.simulated ? (
            <span className="badge badge-muted" title={step.simulated.requestId}>
              written by {step.simulated.agent}
              {step.simulated.totalMs !== undefined ? ` in ${step.simulated.totalMs} ms` : ''}
            </span>
          ) : null}
        </p>
        <p className="tests-message">
          <span className="muted">{step.simulated ? 'Simulated user:' : 'Sent:'}</span>{' '}
          {step.message.length > 500 ? `${step.message.slice(0, 500)}…` : step.message}
        </p>
        {step.error ? (
          <p className="tests-error">
            <code>{step.error.code}</code> {step.error.message}
          </p>
        ) : null}
        <pre className="code tests-reply" tabIndex={0} aria-label="Reply">
          {step.reply || '(no reply text)'}
        </pre>
        <table className="tests-checks" aria-label="Assertions">
          <thead>
            <tr>
              <th scope="col">Assertion</th>
              <th scope="col">Expected</th>
              <th scope="col">Actual</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {step.checks.map((check, i) => (
              <tr
                key={i}
                className={check.passed ? 'tests-check-ok' : 'tests-check-bad'}
                data-passed={check.passed}
              >
                <td>
                  <code>{check.kind}</code> <span className="muted">line {check.line}</span>
                </td>
                <td>{check.expected}</td>
                <td>{check.actual}</td>
                <td>
                  {check.passed ? 'passed' : 'failed'}
                  {check.verdict?.score !== undefined ? (
                    <span className="muted"> · {check.verdict.score}/5</span>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <StreamInspector reply={reply} buffer={buffer} />
    </div>
  );
}

const judged = (attempt: AttemptResult): boolean =>
  attempt.steps.some((s) => s.checks.some((c) => c.kind === 'judge' || c.kind === 'similar-to'));

/** `runId`: the kept run the cell is of, once it is kept (its judged attempts can be labelled). */
export function CellDetail({ cell, runId }: { cell: CellResult; runId?: string | undefined }) {
  const calibration = useRunCalibration(runId);
  const section = useRef<HTMLElement>(null);
  // The grid can be long: the opened cell's detail comes into view.
  // In braces: scrollIntoView returns a promise in newer Chromium, and React would call what an
  // effect returns as its cleanup, failing the next screen when this one is left.
  useEffect(() => {
    section.current?.scrollIntoView({ block: 'nearest' });
  }, [cell.id]);
  return (
    <section ref={section} className="card tests-cell-detail" aria-label="Cell detail">
      <div className="screen-head">
        <h2>
          {cell.caseName} <span className="muted">on {targetLabel(cell.target)}</span>{' '}
          <span className={`badge tests-badge-${cell.status}`}>{cell.status}</span>
        </h2>
        <button type="button" className="secondary small" onClick={() => openCell(undefined)}>
          Close
        </button>
      </div>
      {cell.stats.runs > 1 ? (
        <p className="muted">
          {cell.stats.passed} of {cell.stats.runs} passed{cell.stats.flaky ? ' (flaky)' : ''}
          {cell.stats.ttftMs
            ? ` · first chunk p50 ${cell.stats.ttftMs.p50} ms, p95 ${cell.stats.ttftMs.p95} ms`
            : ''}
        </p>
      ) : null}
      {cell.attempts.map((attempt) => (
        <div key={attempt.repeat} className="tests-attempt">
          {cell.attempts.length > 1 ? (
            <h3>
              Attempt {attempt.repeat}: {attempt.status}
            </h3>
          ) : null}
          {attempt.steps.map((step) => (
            <Step
              key={step.index}
              id={`${cell.id}#${attempt.repeat}.${step.index}`}
              step={step}
              agent={cell.target.agent}
            />
          ))}
          {runId && judged(attempt) ? (
            <LabelForm
              // A form per attempt: another cell's choice and note must not carry over.
              key={`${cell.id}#${attempt.repeat}`}
              runId={runId}
              cellId={cell.id}
              repeat={attempt.repeat}
              current={calibration.data?.labels.find(
                (l) => l.cellId === cell.id && l.repeat === attempt.repeat,
              )}
            />
          ) : null}
        </div>
      ))}
    </section>
  );
}
