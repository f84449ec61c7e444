// A run as ONE self-contained HTML file to open from disk or a CI artifact: inline CSS, no script,
// no font or image to fetch, and a Content-Security-Policy that forbids any request, so the page
// loads nothing whatever a reply holds. The grid (suite × case × target), each failure's expected
// and actual with its stream frames, and the diff against a baseline with the replies word-diffed.
// Every text of the run is escaped: a reply with `<script>` shows as text.
import { diffWordsWithSpace } from 'diff';
import {
  cellHeadline,
  type CellDiff,
  type KeptRun,
  type RunDiff,
  type TimingDelta,
} from '../../../shared/run-history';
import type { AttemptResult, CellResult, SuiteRunResult } from '../../../shared/suite-run';
import { escapeHtml } from '../../../shared/html-text';
import { targetLabel } from './junit-report';

/** Frames shown per failed step, and characters per reply: the file stays openable. */
const FRAMES_SHOWN = 200;
const TEXT_CLIP = 20_000;

const esc = (text: string): string =>
  escapeHtml(
    text.length > TEXT_CLIP ? `${text.slice(0, TEXT_CLIP)}… (${text.length} characters in all)` : text,
  );

const STYLE = `
:root { color-scheme: light dark; --bg: #fff; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0;
  --pass: #1a7f37; --fail: #cf222e; --warn: #9a6700; --panel: #f6f8fa; --ins: #dafbe1; --del: #ffebe9; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1;
  --line: #3d444d; --pass: #3fb950; --fail: #f85149; --warn: #d29922; --panel: #151b23;
  --ins: #1b4721; --del: #5c1e1e; } }
* { box-sizing: border-box; }
body { margin: 0; padding: 24px 32px; background: var(--bg); color: var(--fg); line-height: 1.45;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 28px 0 8px; }
h3 { font-size: 14px; margin: 16px 0 6px; }
.meta { color: var(--muted); margin: 0 0 12px; }
.totals { display: flex; gap: 16px; flex-wrap: wrap; margin: 12px 0; }
.totals span { padding: 4px 10px; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); }
table { border-collapse: collapse; margin: 6px 0 12px; }
th, td { border: 1px solid var(--line); padding: 6px 10px; text-align: left; vertical-align: top; }
th { background: var(--panel); font-weight: 600; }
.passed { color: var(--pass); font-weight: 600; } .failed { color: var(--fail); font-weight: 600; }
.cancelled, .skipped, .noise { color: var(--muted); } .slower { color: var(--warn); font-weight: 600; }
.regression, .new-failure { color: var(--fail); font-weight: 600; } .fixed { color: var(--pass); font-weight: 600; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
pre { white-space: pre-wrap; word-break: break-word; background: var(--panel); border: 1px solid var(--line);
  border-radius: 6px; padding: 8px 10px; margin: 4px 0; max-height: 360px; overflow: auto; }
.failure { border: 1px solid var(--line); border-left: 4px solid var(--fail); border-radius: 6px; padding: 8px 12px; margin: 10px 0; }
.label { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
ins, del { padding: 0 2px; border-radius: 3px; } ins { background: var(--ins); text-decoration: none; } del { background: var(--del); }
details summary { cursor: pointer; color: var(--muted); }
`;

const MARK: Record<string, string> = { passed: '✓', failed: '✗', cancelled: '–', skipped: '–' };

function gridOf(suite: SuiteRunResult['suites'][number]): string {
  const targets = [...new Map(suite.cells.map((c) => [c.target.key, c])).values()];
  const cases = [...new Map(suite.cells.map((c) => [c.caseKey, c])).values()];
  const head = `<tr><th>case</th>${targets.map((t) => `<th>${esc(targetLabel(t))}</th>`).join('')}</tr>`;
  const rows = cases.map((k) => {
    const tds = targets.map((t) => {
      const cell = suite.cells.find((c) => c.caseKey === k.caseKey && c.target.key === t.target.key);
      if (!cell) return '<td></td>';
      const p50 = cell.stats.totalMs ? ` · ${Math.round(cell.stats.totalMs.p50)} ms` : '';
      const rate =
        cell.stats.runs > 1
          ? ` ${cell.stats.passed}/${cell.stats.runs}${cell.stats.flaky ? ' flaky' : ''}`
          : '';
      return `<td class="${cell.status}">${MARK[cell.status] ?? ''} ${cell.status}${rate}${p50}</td>`;
    });
    return `<tr><td>${esc(k.caseName)}</td>${tds.join('')}</tr>`;
  });
  return `<table>${head}${rows.join('')}</table>`;
}

function attemptFailure(suite: string, cell: CellResult, attempt: AttemptResult): string {
  const steps = attempt.steps.filter((s) => s.checks.some((c) => !c.passed));
  const parts = steps.map((step) => {
    const checks = step.checks
      .filter((c) => !c.passed)
      .map(
        (c) =>
          `<p><code>line ${c.line} ${esc(c.kind)}</code></p>` +
          `<div class="label">expected</div><pre>${esc(c.expected)}</pre><div class="label">actual</div><pre>${esc(c.actual)}</pre>`,
      )
      .join('');
    const frames = step.frames
      .slice(0, FRAMES_SHOWN)
      .map((f) => `${f.atMs} ms  ${f.comment ? ': ' : 'data: '}${f.data}`);
    const more =
      step.frames.length > FRAMES_SHOWN || step.framesDropped > 0
        ? `\n… ${step.frames.length - Math.min(step.frames.length, FRAMES_SHOWN) + step.framesDropped} more frames`
        : '';
    return (
      `<h3>turn ${step.index + 1} (line ${step.line}): ${esc(step.message)}</h3>${checks}` +
      `<div class="label">reply</div><pre>${esc(step.reply)}</pre>` +
      (frames.length > 0
        ? `<details open><summary>stream frames (${step.frames.length + step.framesDropped})</summary><pre>${esc(frames.join('\n') + more)}</pre></details>`
        : '')
    );
  });
  const repeat = cell.attempts.length > 1 ? ` #${attempt.repeat}` : '';
  return `<section class="failure"><strong>${esc(suite)} › ${esc(cell.caseName)}</strong> [${esc(targetLabel(cell))}]${repeat}${parts.join('')}</section>`;
}

function timingText(label: string, t: TimingDelta | undefined): string {
  if (!t) return '';
  const sign = (ms: number): string => `${ms >= 0 ? '+' : ''}${ms}`;
  return `<div class="${t.verdict}">${label} p50 ${Math.round(t.before.p50)} → ${Math.round(t.after.p50)} ms (${sign(t.p50DeltaMs)}), p95 ${sign(t.p95DeltaMs)} ms, samples ${t.before.samples}/${t.after.samples}: ${t.verdict === 'noise' ? `noise, ${esc(t.why)}` : `${t.verdict}, ${esc(t.why)}`}</div>`;
}

function wordDiffHtml(before: string, after: string): string {
  return diffWordsWithSpace(before.slice(0, TEXT_CLIP), after.slice(0, TEXT_CLIP))
    .map((p) =>
      p.added
        ? `<ins>${escapeHtml(p.value)}</ins>`
        : p.removed
          ? `<del>${escapeHtml(p.value)}</del>`
          : escapeHtml(p.value),
    )
    .join('');
}

function diffSection(diff: RunDiff): string {
  const changed = diff.cells.filter((c) => c.changed);
  const rate = (side: CellDiff['before']): string => (side ? `${side.passed}/${side.runs}` : '–');
  const rows = changed.map((c) => {
    const turns = c.before && c.after ? Math.max(c.replies.before.length, c.replies.after.length) : 0;
    const replies = Array.from(
      { length: turns },
      (_, i) => [c.replies.before[i] ?? '', c.replies.after[i] ?? ''] as const,
    )
      .filter(([b, a]) => b !== a)
      .map(([b, a]) => `<pre>${wordDiffHtml(b, a)}</pre>`)
      .join('');
    return (
      `<tr><td class="${cellHeadline(c)}">${esc(cellHeadline(c))}</td><td>${esc(c.suite)} › ${esc(c.caseName)}<br><span class="meta">${esc(c.target)}</span></td>` +
      `<td>${rate(c.before)} → ${rate(c.after)}${c.after?.flaky ? ' (flaky)' : ''}</td><td>${timingText('first chunk', c.ttftMs)}${timingText('total', c.totalMs)}</td><td>${replies}</td></tr>`
    );
  });
  const n = diff.counts;
  return (
    `<h2 id="diff">Against the baseline ${esc(diff.base.runId)}</h2>` +
    `<p class="meta">${n.regression} regressed, ${n['new-failure']} new failing, ${n.fixed} fixed, ${n['still-failing']} still failing, ${n.slower} slower, ${n.unchanged} unchanged. A time change within the spread of the repeats, or with fewer than 3 samples a side, is noise.</p>` +
    (rows.length > 0
      ? `<table><tr><th>change</th><th>case</th><th>passed</th><th>times</th><th>reply (word diff)</th></tr>${rows.join('')}</table>`
      : '<p>Nothing changed.</p>')
  );
}

export function htmlReport(run: KeptRun, options: { diff?: RunDiff } = {}): string {
  const t = run.totals;
  const when = new Date(run.startedAt).toISOString().replace(/\.\d+Z$/, 'Z');
  const where = run.where.profiles.map((p) => (p.host ? `${p.name} (${p.host})` : p.name)).join(', ');
  const failures = run.suites.flatMap((s) =>
    s.cells.flatMap((c) =>
      c.attempts.filter((a) => a.status === 'failed').map((a) => attemptFailure(s.name, c, a)),
    ),
  );
  const broken = (run.broken ?? []).map(
    (b) =>
      `<section class="failure"><strong>${esc(b.file)}</strong> did not load<pre>${esc(b.problems.map((p) => `${p.line ?? ''}:${p.col ?? ''} ${p.field ?? ''} ${p.message}`).join('\n'))}</pre></section>`,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; form-action 'none'; base-uri 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Agent tests: ${esc(run.status)} (${t.passed} passed, ${t.failed} failed)</title>
<style>${STYLE}</style></head><body>
<h1>Agent tests: <span class="${run.status}">${esc(run.status)}</span></h1>
<p class="meta">Run ${esc(run.runId)} · ${when} · ${(run.durationMs / 1000).toFixed(1)} s${where ? ` · ${esc(where)}` : ''}</p>
<div class="totals"><span>${t.attempts} attempts</span><span class="passed">${t.passed} passed</span><span class="failed">${t.failed} failed</span>${t.cancelled ? `<span>${t.cancelled} cancelled</span>` : ''}${t.skipped ? `<span>${t.skipped} skipped</span>` : ''}</div>
${options.diff ? diffSection(options.diff) : ''}
<h2 id="grid">Grid</h2>
${run.suites.map((s) => `<h3>${esc(s.name)} <span class="meta">${esc(s.file)}</span></h3>${gridOf(s)}`).join('\n')}
<h2 id="failures">Failures</h2>
${failures.length + broken.length > 0 ? [...broken, ...failures].join('\n') : '<p>None.</p>'}
</body></html>
`;
}
