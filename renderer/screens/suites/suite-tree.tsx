// The open folder's suites, each with its cases and Run buttons; a file that does not load shows
// its problems with their lines instead.
import type { FolderSuite } from '../../../shared/suite-folder';
import type { FileProblem } from '../../../shared/suite-run';

/** A file's problems, each at its file:line:column, as the tree and a run's failing row show them. */
export function Problems({ file, problems }: { file: string; problems: readonly FileProblem[] }) {
  return (
    <ul className="tests-problems" aria-label={`Problems in ${file}`}>
      {problems.map((p, i) => (
        <li key={i}>
          <code>
            {file}
            {p.line !== undefined ? `:${p.line}:${p.col ?? 1}` : ''}
          </code>{' '}
          {p.field ? <code>{p.field}</code> : null} {p.message}
        </li>
      ))}
    </ul>
  );
}

export function SuiteTree({
  suites,
  busy,
  onRun,
  saved,
}: {
  suites: FolderSuite[];
  busy: boolean;
  onRun: (input: { file?: string; caseKey?: string }) => void;
  /** A case "Save as test case" just wrote: marked and scrolled to, to run and edit. */
  saved?: { file: string; caseName: string } | undefined;
}) {
  if (suites.length === 0) return <p className="muted">This folder holds no suite files (*.yaml, *.yml).</p>;
  const savedCase = suites.find((s) => s.file === saved?.file)?.cases.find((c) => c.name === saved?.caseName);
  return (
    <>
      {saved && savedCase ? (
        <p className="note tests-saved-note" role="status">
          Saved “{saved.caseName}” to <code>{saved.file}</code>, line {savedCase.line}: edit its turns and
          assertions there (the folder is watched), and run it here.
        </p>
      ) : null}
      <ul className="tests-tree" aria-label="Suites">
        {suites.map((suite) => (
          <li key={suite.file} className="tests-suite" data-file={suite.file}>
            <div className="tests-suite-head">
              <span>
                <strong>{suite.name ?? suite.file}</strong>{' '}
                <span className="muted">
                  {suite.file}
                  {suite.agents.length > 0 ? ` · ${suite.agents.join(', ')}` : ''}
                </span>
              </span>
              {suite.problems ? (
                <span className="badge tests-badge-failed">does not load</span>
              ) : (
                <button
                  type="button"
                  className="secondary small"
                  disabled={busy}
                  aria-label={`Run suite ${suite.name ?? suite.file}`}
                  onClick={() => onRun({ file: suite.file })}
                >
                  Run suite
                </button>
              )}
            </div>
            {suite.problems ? <Problems file={suite.file} problems={suite.problems} /> : null}
            {suite.warnings?.length ? (
              <ul className="tests-warnings" aria-label={`Warnings for ${suite.file}`}>
                {suite.warnings.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            ) : null}
            <ul className="tests-cases">
              {suite.cases.map((c) => (
                <li
                  key={c.key}
                  className={c === savedCase ? 'tests-case-saved' : undefined}
                  aria-current={c === savedCase ? 'true' : undefined}
                  ref={c === savedCase ? (el) => el?.scrollIntoView({ block: 'nearest' }) : undefined}
                >
                  <span>
                    {c.name} <span className="muted">line {c.line}</span>
                  </span>
                  <button
                    type="button"
                    className="link"
                    disabled={busy}
                    aria-label={`Run case ${c.name}`}
                    onClick={() => onRun({ file: suite.file, caseKey: c.key })}
                  >
                    Run
                  </button>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </>
  );
}
