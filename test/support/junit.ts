// JUnit XML as CI reads it: parsed into its suites and cases, and checked by a real XSD validator
// (xmllint, libxml2) against the common JUnit XSD (test/fixtures/junit.xsd).
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { XMLParser } from 'fast-xml-parser';

const XSD = 'test/fixtures/junit.xsd';

export const hasXmllint = spawnSync('sh', ['-c', 'command -v xmllint'], { stdio: 'ignore' }).status === 0;
export const NO_XMLLINT =
  'skipped: xmllint is not installed (Debian: apt-get install libxml2-utils; .ci/run installs it)';

export function xmllint(file: string): { ok: boolean; output: string } {
  const result = spawnSync('xmllint', ['--noout', '--schema', XSD, file], { encoding: 'utf8' });
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
}

type Xml = Record<string, unknown>;
const asList = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

export function junit(file: string): { suites: Xml[]; cases: Xml[] } {
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
    readFileSync(file, 'utf8'),
  );
  const suites = asList<Xml>(doc.testsuites.testsuite);
  return { suites, cases: suites.flatMap((s) => asList<Xml>(s.testcase as Xml | Xml[])) };
}
