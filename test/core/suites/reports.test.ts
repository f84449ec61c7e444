// The Markdown summary (sized for a pull request comment) and the one-file HTML report: what the
// gate names first, the cap, and text of the run shown as text, never as markup.
import { describe, expect, test } from 'vitest';
import { htmlReport } from '../../../electron/core/suites/html-report';
import {
  MAX_MARKDOWN_CHARS,
  markdownReport,
  markdownText,
} from '../../../electron/core/suites/markdown-report';
import { diffRuns } from '../../../electron/core/suites/run-diff';
import { cell, run } from '../../support/run-builder';

const GITHUB_LIMIT = 65_000;

describe('the markdown summary', () => {
  const passes = (n: number, prefix = 'passes') =>
    Array.from({ length: n }, (_, i) => cell(`${prefix} ${i + 1}`, [{ ttftMs: 100, totalMs: 200 }]));

  test('2 regressions and 40 passes: under 65,000 characters, beginning with the regressions', () => {
    const base = run('base', { 'checkout.yaml': [cell('pays', [{}]), cell('refunds', [{}]), ...passes(40)] });
    const head = run('head', {
      'checkout.yaml': [
        ...passes(20),
        cell('pays', [{ passed: false, expected: 'contains "paid"', actual: '"declined"' }]),
        ...passes(20).map((c, i) => ({ ...c, caseKey: `passes ${i + 21}`, caseName: `passes ${i + 21}` })),
        cell('refunds', [{ passed: false }]),
      ],
    });
    const text = markdownReport(head, {
      diff: diffRuns(base, head),
      reportUrl: 'https://ci.example.com/run/1/report.html',
    });
    expect(text.length).toBeLessThan(GITHUB_LIMIT);
    expect(
      text.startsWith('## ❌ Agent tests: 2 regressions\n\n### Regressions\n\n- **checkout › pays**'),
    ).toBe(true);
    expect(text).toContain('line 7 contains: expected contains "paid", actual "declined"');
    expect(text.split('\n').filter((l) => l.startsWith('- '))).toHaveLength(2);
    expect(text).toMatch(/\| this run \| 42 \| 40 \| 2 \| 0 \| 0 \|/);
    expect(text).toContain('[The full HTML report](https://ci.example.com/run/1/report.html)');
  });

  test('a huge run is cut under the cap with a line that says so, and keeps its totals', () => {
    const long = 'x'.repeat(1_000);
    const base = run('base', { 'big.yaml': passes(5_000, long) });
    const head = run('head', {
      'big.yaml': passes(5_000, long).map((c) => ({ ...cell(c.caseName, [{ passed: false }]) })),
    });
    const text = markdownReport(head, { diff: diffRuns(base, head) });
    expect(text.length).toBeLessThanOrEqual(MAX_MARKDOWN_CHARS);
    expect(text).toMatch(
      /^_Cut here: \d+ more lines did not fit a summary; the HTML and JSON reports have them all\._$/m,
    );
    expect(text.startsWith('## ❌ Agent tests: 5000 regressions\n\n### Regressions\n')).toBe(true);
    expect(text).toMatch(/### Totals\n\n\| \| attempts/);
  });

  test('text of the run is text: no markup, no HTML, one line', () => {
    expect(markdownText('<img src=x onerror=alert(1)> **bold** [a](http://x) | pipe\nnext')).toBe(
      '&lt;img src=x onerror=alert\\(1\\)&gt; \\*\\*bold\\*\\* \\[a\\]\\(http://x\\) \\| pipe next',
    );
  });
});

describe('the HTML report', () => {
  const hostile = '<script>alert("x")</script><img src=https://tracker.example.com/p.gif>';
  const base = run('base', { 'web.yaml': [cell('renders', [{}])] });
  const head = run('head', {
    'web.yaml': [
      cell(`renders ${hostile}`, [{ passed: false, reply: hostile, actual: JSON.stringify(hostile) }]),
    ],
  });
  const html = htmlReport(head, { diff: diffRuns(base, head) });

  test('one self-contained file: a policy that forbids any request, no script, no link, no font', () => {
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'`,
    );
    expect(html).not.toMatch(
      /<(script|link|img|iframe|object|embed)\b|@import|url\(|@font-face|<[^>]*\ssrc=/i,
    );
  });

  test('a reply holding <script> shows as text', () => {
    expect(html).toContain(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=https://tracker.example.com/p.gif&gt;',
    );
  });
});
