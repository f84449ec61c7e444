// The console page's CSP, as the desktop shell and the web host send it and renderer/index.html
// carries it: no inline or remote script, nothing remote at all, no framing.
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, META_CONTENT_SECURITY_POLICY } from '../../shared/page-policy';

describe('CONTENT_SECURITY_POLICY', () => {
  it('is the meta tag in renderer/index.html plus frame-ancestors, which a meta tag cannot carry', async () => {
    const { readFileSync } = await import('node:fs');
    const html = readFileSync(new URL('../../renderer/index.html', import.meta.url), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    expect(meta).toBe(META_CONTENT_SECURITY_POLICY);
    expect(meta).not.toContain('frame-ancestors');
    expect(CONTENT_SECURITY_POLICY).toBe(`${meta}; frame-ancestors 'none'`);
  });

  const directives = new Map(
    CONTENT_SECURITY_POLICY.split(';').map((d) => {
      const [name = '', ...values] = d.trim().split(/\s+/);
      return [name, values] as const;
    }),
  );

  it('forbids inline and eval’d scripts, plugins and every remote origin', () => {
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    for (const [name, values] of directives) {
      for (const value of values) {
        // Only keywords and data: (images) — no host, no scheme that reaches the network.
        expect(/^'(self|none|unsafe-inline)'$|^data:$/.test(value), `${name} ${value}`).toBe(true);
      }
      if (name !== 'style-src') expect(values, name).not.toContain("'unsafe-inline'");
      expect(values, name).not.toContain("'unsafe-eval'");
    }
  });

  it('passes the CSP evaluator electronegativity uses with only its note on script-src self', async () => {
    const { createRequire } = await import('node:module');
    type Finding = { severity: number; directive: string; value: string };
    const csp = createRequire(import.meta.url)('@doyensec/csp-evaluator') as {
      CspParser: new (policy: string) => { csp: unknown };
      CspEvaluator: new (parsed: unknown, version: number) => { evaluate(): Finding[] };
      Version: { CSP3: number };
      severities: Record<'HIGH' | 'SYNTAX' | 'MEDIUM' | 'HIGH_MAYBE' | 'MEDIUM_MAYBE', number>;
    };
    const findings = new csp.CspEvaluator(
      new csp.CspParser(CONTENT_SECURITY_POLICY).csp,
      csp.Version.CSP3,
    ).evaluate();
    const { HIGH, SYNTAX, MEDIUM, HIGH_MAYBE, MEDIUM_MAYBE } = csp.severities;
    expect(findings.filter((f) => [HIGH, SYNTAX, MEDIUM, HIGH_MAYBE].includes(f.severity))).toEqual([]);
    // "'self' can be problematic if you host JSONP, Angular or user uploaded files": none here.
    expect(findings.filter((f) => f.severity === MEDIUM_MAYBE).map((f) => [f.directive, f.value])).toEqual([
      ['script-src', "'self'"],
    ]);
  });
});
