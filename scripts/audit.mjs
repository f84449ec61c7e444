// `npm test`'s security audit: @doyensec/electronegativity over the shell (Electron's
// main-process code: webPreferences, session and navigation handlers) and the renderer (its page
// and CSP). Fails on any finding not accepted in electron/shell/electronegativity-accepted.json,
// on an accepted finding whose file lacks the `electronegativity: CHECK_ID` comment beside the code,
// and on an accepted entry that no longer matches a finding (so the list cannot go stale).
//
// Offline: AvailableSecurityFixesGlobalCheck (it downloads Electron's release list) is excluded;
// the Electron version is given (electronVersionOverride) instead of looked up. The tool also tries to fetch updated
// translations and says "Could not retrieve updated translations" when it cannot; it then uses the
// English it ships with.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const ACCEPTED = 'electron/shell/electronegativity-accepted.json';
/** The Electron the app is built with (its checks depend on it); installed even where its binary is not. */
const ELECTRON_VERSION = JSON.parse(readFileSync('node_modules/electron/package.json', 'utf8')).version;
const OFFLINE = ['AvailableSecurityFixesGlobalCheck'];
const SCANS = [
  { input: 'electron/shell', exclude: OFFLINE },
  // The navigation and permission handlers live in the shell (scanned above); scanning the
  // renderer alone, these two global checks would only report that they are not in it.
  {
    input: 'renderer',
    exclude: [...OFFLINE, 'LimitNavigationGlobalCheck', 'PermissionRequestHandlerGlobalCheck'],
  },
];

// In-process, through its documented programmatic entry point: its CLI writes the CSV report
// asynchronously and can exit before the file is complete.
const require = createRequire(import.meta.url);
const electronegativity = require('@doyensec/electronegativity');

async function scan({ input, exclude }) {
  const { issues, errors } = await electronegativity({
    input: resolve(input),
    isRelative: true,
    electronVersionOverride: ELECTRON_VERSION,
    excludeFromScan: exclude,
    customScan: [],
  });
  for (const error of errors ?? [])
    problems.push(`✗ electronegativity could not check ${input}: ${JSON.stringify(error)}`);
  return issues.map((issue) => ({
    check: issue.id,
    severity: issue.severity?.name ?? String(issue.severity),
    confidence: issue.confidence?.name ?? String(issue.confidence),
    file: issue.file === 'N/A' ? input : join(input, issue.file),
    location: `${issue.location.line}:${issue.location.column}`,
    sample: issue.sample ?? '',
    description: issue.description,
  }));
}

const accepted = JSON.parse(readFileSync(ACCEPTED, 'utf8')).accepted;
const problems = [];
const findings = [];
for (const target of SCANS) findings.push(...(await scan(target)));
const key = (f) => `${f.check} ${f.file}`;
for (const finding of findings) {
  const entry = accepted.find((a) => key(a) === key(finding));
  if (!entry) {
    problems.push(
      `✗ ${finding.check} (${finding.severity}, ${finding.confidence}) at ${finding.file}:${finding.location}: ${finding.description}\n    ${finding.sample}`,
    );
  } else {
    console.log(`accepted ${finding.check} at ${finding.file}:${finding.location}: ${entry.why}`);
  }
}
for (const entry of accepted) {
  if (!findings.some((f) => key(f) === key(entry))) {
    problems.push(`✗ ${ACCEPTED}: ${key(entry)} is accepted but no longer found; remove it.`);
  }
  let source = '';
  try {
    source = readFileSync(entry.file, 'utf8');
  } catch {
    // a missing file fails just below
  }
  if (!source.includes(`electronegativity: ${entry.check}`)) {
    problems.push(`✗ ${entry.file} has no "electronegativity: ${entry.check}" comment explaining it.`);
  }
}
console.log(`electronegativity: ${findings.length} findings, ${problems.length} problems.`);
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
