// The Tests screen's folder: its suite files (the *.yaml and *.yml directly inside, as the CLI
// reads a folder) listed with their cases or, for a file that does not load, its problems with
// their lines; and a watcher (chokidar) that says when a file was added, changed or removed, so
// an edit made in an editor shows without a reload.
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, resolve, sep } from 'node:path';
import { watch } from 'chokidar';
import type { FolderListing, FolderSuite } from '../../../shared/suite-folder';
import { CoreError } from '../core-error';
import { loadSuiteFile, SuiteFileError, type LoadedSuite } from './suite-loader';

const SUITE_FILE = /\.ya?ml$/i;
/** Editors write a file in a few steps (truncate, write, rename): one listing after they settle. */
const SETTLE_MS = 150;

/** An absolute path to an existing folder (one the desktop's chooser gave), or a clear error. */
export async function checkFolder(path: string): Promise<string> {
  const trimmed = path.trim();
  if (!isAbsolute(trimmed))
    throw new CoreError('BAD_INPUT', `Give the folder as a full path (got "${path}").`);
  const folder = resolve(trimmed);
  const info = await stat(folder).catch(() => undefined);
  if (!info?.isDirectory()) throw new CoreError('NOT_FOUND', `There is no folder at ${folder}.`);
  return folder;
}

/** Whether `path` is `folder` or inside it (both absolute and resolved). */
function isInside(path: string, folder: string): boolean {
  // Windows and macOS file systems usually ignore case; a differently cased path is the same folder.
  const fold = (p: string): string => (process.platform === 'linux' ? p : p.toLowerCase());
  const [inner, outer] = [fold(path), fold(folder)];
  return inner === outer || inner.startsWith(outer.endsWith(sep) ? outer : `${outer}${sep}`);
}

/**
 * A folder typed in the browser (the web host has no folder chooser): it must be inside the
 * user's home folder, so that a page that got hold of the bridge cannot have the core read and
 * watch any folder the process can reach (/etc, another user's checkout). A relative path, and
 * `~/…`, start at the home folder. Symbolic links are resolved before the check, so a link inside
 * home to a folder outside it is refused; the lexical check comes first, so nothing is said about
 * what exists outside (docs/security.md, "Suite and monitors files").
 */
export async function checkTypedFolder(
  typed: string,
  homeDir: string,
  instead = 'put the suites in a folder there',
): Promise<string> {
  const home = await realpath(homeDir).catch(() => resolve(homeDir));
  const trimmed = typed.trim();
  const expanded = trimmed === '~' ? home : trimmed.startsWith(`~/`) ? join(home, trimmed.slice(2)) : trimmed;
  const folder = resolve(home, expanded);
  const refused = (shown: string): CoreError =>
    new CoreError(
      'BAD_INPUT',
      `Only a folder inside your home folder (${home}) can be opened by a typed path, and ${shown} is not: ${instead}.`,
    );
  if (!isInside(folder, home)) throw refused(folder);
  const info = await stat(folder).catch(() => undefined);
  if (!info?.isDirectory()) throw new CoreError('NOT_FOUND', `There is no folder at ${folder}.`);
  const real = await realpath(folder);
  if (!isInside(real, home)) throw refused(`${folder} (a link to ${real})`);
  return real;
}

/** A suite file of the folder by its name: a plain file name, nothing that leaves the folder. */
export function suitePath(folder: string, file: string): string {
  if (file !== basename(file) || file.startsWith('.') || !SUITE_FILE.test(file)) {
    throw new CoreError(
      'BAD_INPUT',
      `A suite file is a name ending in .yaml or .yml inside the folder (got "${file}").`,
    );
  }
  return join(folder, file);
}

export async function suiteFileNames(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && SUITE_FILE.test(e.name))
    .map((e) => e.name)
    .sort();
}

async function loadFolderSuite(folder: string, file: string): Promise<LoadedSuite> {
  return loadSuiteFile(suitePath(folder, file));
}

export async function listFolder(folder: string): Promise<FolderListing> {
  const suites: FolderSuite[] = [];
  for (const file of await suiteFileNames(folder)) {
    try {
      const suite = await loadFolderSuite(folder, file);
      suites.push({
        file,
        name: suite.name,
        cases: suite.cases.map((c) => ({ key: c.key, name: c.name, line: c.line })),
        agents: suite.targets.agents ?? [],
        ...(suite.warnings?.length ? { warnings: suite.warnings } : {}),
      });
    } catch (error) {
      if (!(error instanceof SuiteFileError)) throw error;
      suites.push({ file, cases: [], agents: [], problems: error.problems });
    }
  }
  return { folder, suites };
}

/** Calls `onChange` (debounced) when a suite file of the folder is added, changed or removed. */
export function watchFolder(folder: string, onChange: () => void): () => Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const watcher = watch(folder, {
    depth: 0,
    ignoreInitial: true,
    ignored: (path, info) => path !== folder && info?.isFile() === true && !SUITE_FILE.test(path),
  });
  watcher.on('all', () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(onChange, SETTLE_MS);
  });
  return async () => {
    if (timer) clearTimeout(timer);
    await watcher.close();
  };
}
