// Reads suite files (YAML, one suite per file) into planned cases. Every problem — YAML syntax,
// the zod schema of shared/suite.ts, or the rules of suite-expand.ts — is reported with the file,
// line, column and field, all of them at once, so a user fixes a file in one go.
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { ASSERTION_KINDS, SuiteFile } from '../../../shared/suite';
import type { PlannedCase } from '../../../shared/suite-run';
import { parseYamlFile, YamlFileError, type ParsedYaml, type PathProblem } from '../yaml-file';
import { DatasetError, readDataset, type Dataset } from './dataset';
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
  /** The lowest Cohen's κ of a judge against human labels that the run trusts (`min-kappa`). */
  minKappa?: number;
  cases: PlannedCase[];
  /** One line each for the front end to show: a declared value too short to be masked. */
  warnings?: string[];
}

/** Inside an `assert` or `each-turn` list an unknown key is an unknown assertion. */
const unknownKey = (path: readonly PropertyKey[], key: string): string =>
  path.length >= 2 && (path.at(-2) === 'assert' || path.at(-2) === 'each-turn')
    ? `Unknown assertion "${key}": use one of ${ASSERTION_KINDS.join(', ')}.`
    : `Unknown field "${key}".`;

type ParsedSuite = ParsedYaml<SuiteFile>;

function readSuiteYaml(text: string, file: string): ParsedSuite {
  return parseYamlFile(text, file, SuiteFile, {
    empty: 'The file is empty: a suite needs a name and cases.',
    oneDocument: 'One suite per file: this file holds more than one YAML document (---).',
    unknownKey,
    makeError: (f, problems) => new SuiteFileError(f, problems),
  });
}

function expandParsed(
  parsed: ParsedSuite,
  file: string,
  env: Readonly<Record<string, string | undefined>>,
  options: SuiteEnvOptions,
  datasets: ReadonlyMap<number, Dataset | undefined>,
  early: readonly PathProblem[],
): LoadedSuite {
  const suite = parsed.value;
  // Before anything is expanded or reported, so no output of this process can show a value.
  const warnings = rememberDeclared(suite.env, env, options);
  const { cases, problems } = expandSuite(suite, env, parsed.lineOf, options, datasets);
  const all = [...early, ...problems];
  if (all.length > 0) throw new SuiteFileError(file, all.map(parsed.at));
  return {
    file,
    name: suite.name,
    ...(suite.description !== undefined ? { description: suite.description } : {}),
    targets: { ...suite.targets },
    ...(suite['min-kappa'] !== undefined ? { minKappa: suite['min-kappa'] } : {}),
    cases,
    warnings,
  };
}

/**
 * Parses and checks the text of one suite file; `file` is the name used in messages. The values
 * of the environment variables it declares become secrets of this process (suite-env.ts). Text
 * that is no file on disk has nothing beside it, so a `vars-file` is a problem here.
 */
export function parseSuite(
  text: string,
  file: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  options: SuiteEnvOptions = {},
): LoadedSuite {
  const parsed = readSuiteYaml(text, file);
  const early = parsed.value.cases.flatMap((c, ci) =>
    c['vars-file'] !== undefined
      ? [
          {
            path: ['cases', ci],
            key: 'vars-file',
            message: 'A vars-file is read beside a suite file on disk; this suite is not read from one.',
          },
        ]
      : [],
  );
  return expandParsed(parsed, file, env, options, new Map(), early);
}

/** The datasets of a suite's cases (`vars-file`, relative to the suite file), each problem at its field. */
async function readDatasets(
  suite: SuiteFile,
  path: string,
): Promise<{ datasets: Map<number, Dataset | undefined>; problems: PathProblem[] }> {
  // A dataset that cannot be read is its problem alone: its case is not expanded as well.
  const datasets = new Map<number, Dataset | undefined>();
  const problems: PathProblem[] = [];
  for (const [ci, c] of suite.cases.entries()) {
    const name = c['vars-file'];
    if (name === undefined) continue;
    try {
      datasets.set(ci, await readDataset(resolve(dirname(path), name)));
    } catch (error) {
      if (!(error instanceof DatasetError)) throw error;
      const where = error.line !== undefined ? `${name} line ${error.line}` : name;
      problems.push({ path: ['cases', ci], key: 'vars-file', message: `${where}: ${error.message}` });
      datasets.set(ci, undefined);
    }
  }
  return { datasets, problems };
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
  const parsed = readSuiteYaml(text, path);
  const { datasets, problems } = await readDatasets(parsed.value, path);
  return expandParsed(parsed, path, env, options, datasets, problems);
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
