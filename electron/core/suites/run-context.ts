// Where and what a run ran, kept with it: the profiles (name, base URL host) of its targets, and
// its suite files with the git commit of each one's folder. A folder that is no git checkout, or a
// machine without git, has no commit: that is no error, the field is just absent.
import { execFile } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import type { RunWhat, RunWhere } from '../../../shared/run-history';
import type { RunSuite } from './suite-runner';

const GIT_TIMEOUT_MS = 5_000;

/** `git rev-parse HEAD` in the folder, or undefined (not a checkout, no git, too slow). */
export function gitCommit(folder: string): Promise<string | undefined> {
  return new Promise((done) => {
    execFile(
      'git',
      ['rev-parse', '--verify', '--quiet', 'HEAD'],
      { cwd: folder, timeout: GIT_TIMEOUT_MS, maxBuffer: 4096, windowsHide: true },
      (error, stdout) => {
        const commit = stdout.trim();
        done(!error && /^[0-9a-f]{40,64}$/.test(commit) ? commit : undefined);
      },
    );
  });
}

function host(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return '';
  }
}

export function runWhere(runs: readonly RunSuite[]): RunWhere {
  const profiles = new Map<string, { name: string; host: string }>();
  for (const target of runs.flatMap((r) => r.targets)) {
    const { name, baseUrl } = target.profile;
    profiles.set(`${name}\n${baseUrl}`, { name, host: host(baseUrl) });
  }
  return { profiles: [...profiles.values()] };
}

export async function runWhat(files: readonly { file: string; name: string }[]): Promise<RunWhat> {
  const commits = new Map<string, Promise<string | undefined>>();
  const out: RunWhat['files'] = [];
  for (const { file, name } of files) {
    const folder = dirname(resolve(file));
    if (!commits.has(folder)) commits.set(folder, gitCommit(folder));
    const commit = await commits.get(folder);
    out.push({ file: resolve(file), name, ...(commit ? { commit } : {}) });
  }
  return { files: out };
}

/** The same suites on the same where: what `--baseline last` looks for (docs/architecture.md). */
export function sameRunShape(
  a: { where: RunWhere; what: RunWhat },
  b: { where: RunWhere; what: RunWhat },
): boolean {
  const files = (r: { what: RunWhat }): string =>
    JSON.stringify(r.what.files.map((f) => resolve(f.file)).sort());
  // By host name, not port: the embedded mock listens on a new port at each start.
  const where = (r: { where: RunWhere }): string =>
    JSON.stringify(r.where.profiles.map((p) => `${p.name}@${p.host.replace(/:\d+$/, '')}`).sort());
  return files(a) === files(b) && where(a) === where(b);
}
