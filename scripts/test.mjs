// `npm test`: typecheck, lint, the import graph (scripts/import-graph.mjs), format, the security audit
// (electronegativity, scripts/audit.mjs), unused code (knip),
// unit and integration tests (Vitest), then the browser
// end-to-end tests (Playwright in Chromium through the web host). Ends with one line:
// `N passed, N failed` (static checks count one each).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { CHROMIUM_HINT, findChromium } from './find-chromium.mjs';
import { secretServiceOwned } from './secret-service-name.mjs';

const SECRET_SERVICE_HINT =
  'No Secret Service for the keychain tests: install it (Debian/Ubuntu: `sudo apt-get install gnome-keyring dbus`).';

/** On Linux the keychain tests need a Secret Service: run the whole suite inside a private D-Bus
 * session with an unlocked gnome-keyring, as a desktop session would have. */
function reexecUnderDbus() {
  if (process.platform !== 'linux' || process.env.AGENT_CONSOLE_TEST_SESSION === '1') return;
  const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
  if (!has('dbus-run-session') || !has('gnome-keyring-daemon')) {
    console.error(SECRET_SERVICE_HINT);
    process.env.AGENT_CONSOLE_NO_SECRET_SERVICE = '1';
    return;
  }
  // A throwaway keyring per run (its own XDG_DATA_HOME), unlocked with a password: with an empty
  // one gnome-keyring creates no default collection and every lookup fails. In the foreground (a
  // child of this session, its pid known) rather than daemonized, so the run can wait until it
  // owns the Secret Service name and say so if it is ever gone (see keyringReady below).
  const inner = [
    'keyrings=$(mktemp -d)',
    'mkdir -p "$keyrings/keyrings"',
    '(printf agent-console-test | XDG_DATA_HOME="$keyrings" exec gnome-keyring-daemon --foreground --unlock --components=secrets >/dev/null 2>&1) &',
    'export AGENT_CONSOLE_TEST_KEYRING_PID=$!',
    'exec "$0" "$@"',
  ].join('\n');
  // The session bus gets the open-file allowance a desktop session's has (it asks for 65,536 and,
  // unprivileged, keeps the soft limit it was started with, often 1,024): every test process,
  // browser and keychain client holds connections to it at once.
  const result = spawnSync(
    'sh',
    [
      '-c',
      'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec dbus-run-session -- sh -c "$@"',
      'sh',
      inner,
      process.execPath,
      ...process.argv.slice(1),
    ],
    {
      stdio: 'inherit',
      env: { ...process.env, AGENT_CONSOLE_TEST_SESSION: '1' },
    },
  );
  process.exit(result.status ?? 1);
}

reexecUnderDbus();

const keyringPid = Number(process.env.AGENT_CONSOLE_TEST_KEYRING_PID) || undefined;

/**
 * The session's keyring must own org.freedesktop.secrets before any test asks for it: a call to an
 * unowned name makes D-Bus start another gnome-keyring, whose keyring is locked, and every keychain
 * test then fails as "locked". Waits up to 15 s.
 */
async function keyringReady() {
  if (!keyringPid) return;
  for (let waited = 0; waited < 15_000; waited += 100) {
    if (secretServiceOwned()) return;
    await sleep(100);
  }
  console.error("The test session's gnome-keyring did not take org.freedesktop.secrets within 15 s.");
}

/** After a phase: one line if the session's keyring is gone, so a keychain failure is explained. */
function keyringStillThere(phase) {
  if (!keyringPid) return;
  try {
    process.kill(keyringPid, 0);
  } catch {
    console.error(`The test session's gnome-keyring (pid ${keyringPid}) exited during ${phase}.`);
  }
}

await keyringReady();

// The tests talk to mocks on 127.0.0.1 and decide themselves when a proxy is in the way (the proxy
// tests set their own): a CI machine's proxy variables would otherwise send them through its proxy.
for (const name of ['HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY', 'NO_PROXY']) {
  delete process.env[name];
  delete process.env[name.toLowerCase()];
}

const bin = (name) => `node_modules/.bin/${name}`;
let passed = 0;
let failed = 0;
let skipped = 0;

function run(label, cmd, args, env = {}) {
  console.log(`\n== ${label}: ${cmd} ${args.join(' ')}`);
  const result = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status === 0;
}

function check(label, cmd, args) {
  if (run(label, cmd, args)) passed++;
  else {
    failed++;
    console.error(`✗ ${label} failed`);
  }
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

rmSync('test-results', { recursive: true, force: true });
mkdirSync('test-results', { recursive: true });

check('typecheck', bin('tsc'), ['--noEmit', '-p', '.']);
check('lint', bin('eslint'), ['.']);
check('import graph', process.execPath, ['scripts/import-graph.mjs']);
check('format', bin('prettier'), ['--check', '.']);
check('security audit', process.execPath, ['scripts/audit.mjs']);
check('unused code', bin('knip'), []);

run('unit and integration', bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  '--outputFile=test-results/vitest.json',
]);
keyringStillThere('the unit and integration tests');
const vitest = readJson('test-results/vitest.json');
if (vitest) {
  passed += vitest.numPassedTests;
  // A file whose hooks failed has no failed test, only skipped ones: it is a failure all the same.
  const brokenFiles = vitest.testResults.filter(
    (file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'),
  ).length;
  failed += vitest.numFailedTests + brokenFiles;
  skipped += vitest.numPendingTests + vitest.numTodoTests;
} else {
  failed++;
  console.error('✗ Vitest wrote no report');
}

check('build', process.execPath, ['scripts/build.mjs']);

const chromium = await findChromium();
if (!chromium) {
  console.error(CHROMIUM_HINT);
  failed++;
} else if (existsSync('out/renderer/index.html')) {
  run('end to end', bin('playwright'), ['test'], { CHROMIUM_PATH: chromium });
  keyringStillThere('the end-to-end tests');
  const e2e = readJson('test-results/e2e.json');
  if (e2e?.stats) {
    passed += e2e.stats.expected + e2e.stats.flaky;
    failed += e2e.stats.unexpected;
    skipped += e2e.stats.skipped;
  } else {
    failed++;
    console.error('✗ Playwright wrote no report');
  }
}

console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
