// Reads suite files (YAML, one suite per file) into planned cases. Every problem — YAML syntax,
// the zod schema of shared/suite.ts, or the rules of suite-expand.ts — is reported with the file,
// line, column and field, all of them at once, so a user fixes a file in one go.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ASSERTION_KINDS, SuiteFile } from '../../../shared/suite';
import type { PlannedCase } from '../../../shared/suite-run';
import { parseYamlFile, YamlFileError } from '../yaml-file';
import { rememberDeclared, type SuiteEnvOptions } from './suite-env';
import { expandSuite } from './suite-expand';

export class SuiteFileError extends YamlFileError {
  override readonly name = 'SuiteFileError';
}

export interface LoadedSuite {
  file: string;
  name: string;
  description?: string;
  targets: { agents?: string[]; profiles?: string[] };
  cases: PlannedCase[];
  /** One line each for the front end to show: a declared value too short to be masked. */
  warnings?: string[];
}

/** Inside an `assert` list an unknown key is an unknown assertion. */
const unknownKey = (path: readonly PropertyKey[], key: string): string =>
  path.length >= 2 && path.at(-2) === 'assert'
    ? `Unknown assertion "${key}": use one of ${ASSERTION_KINDS.join(', ')}.`
    : `Unknown field "${key}".`;

/**
 * Parses and checks the text of one suite file; `file` is the name used in messages. The values
 * of the environment variables it declares become secrets of this process (suite-env.ts).
 */
export function parseSuite(
  text: string,
  file: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  options: SuiteEnvOptions = {},
): LoadedSuite {
  const parsed = parseYamlFile(text, file, SuiteFile, {
    empty: 'The file is empty: a suite needs a name and cases.',
    oneDocument: 'One suite per file: this file holds more than one YAML document (---).',
    unknownKey,
    makeError: (f, problems) => new SuiteFileError(f, problems),
  });
  const suite = parsed.value;
  // Before anything is expanded or reported, so no output of this process can show a value.
  const warnings = rememberDeclared(suite.env, env, options);
  const { cases, problems } = expandSuite(suite, env, parsed.lineOf, options);
  if (problems.length > 0) throw new SuiteFileError(file, problems.map(parsed.at));
  return {
    file,
    name: suite.name,
    ...(suite.description !== undefined ? { description: suite.description } : {}),
    targets: { ...suite.targets },
    cases,
    warnings,
  };
}

export async function loadSuiteFile(
  path: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  options: SuiteEnvOptions = {},
): Promise<LoadedSuite> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new SuiteFileError(path, [
      { message: `Cannot read the file (${(error as NodeJS.ErrnoException).code ?? error}).` },
    ]);
  }
  return parseSuite(text, path, env, options);
}

const SUITE_FILE = /\.ya?ml$/i;

/**
 * The suite files named: a file as given; a folder's *.yaml and *.yml files directly inside it, by
 * name (subfolders are not entered, so drafts or deliberately failing suites can sit aside).
 */
export async function findSuiteFiles(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (!info) throw new SuiteFileError(path, [{ message: 'No such file or folder.' }]);
    if (info.isFile()) {
      files.push(path);
      continue;
    }
    const entries = await readdir(path, { withFileTypes: true });
    const found = entries
      .filter((e) => e.isFile() && SUITE_FILE.test(e.name))
      .map((e) => join(path, e.name))
      .sort();
    if (found.length === 0) {
      throw new SuiteFileError(path, [{ message: 'The folder holds no suite files (*.yaml, *.yml).' }]);
    }
    files.push(...found);
  }
  return [...new Set(files)];
}
