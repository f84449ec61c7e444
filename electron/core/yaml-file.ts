// Files people write by hand (suites, monitor configs): YAML read with line positions, checked by a
// zod schema, every problem reported with its file, line, column and field, all at once, so a
// user fixes a file in one go.
import { LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { describeProblem, type FileProblem } from '../../shared/suite-run';
import { locateInYaml } from './yaml-locate';

/** A problem at a path of the parsed value (a zod issue's path), placed on a line by `locate`. */
export interface PathProblem {
  path: PropertyKey[];
  /** The field of the map at `path` the problem is about (its line is the key's). */
  key?: string;
  message: string;
}

export class YamlFileError extends Error {
  override readonly name: string = 'YamlFileError';

  constructor(
    readonly file: string,
    readonly problems: FileProblem[],
  ) {
    super(
      [...problems]
        .sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0))
        .map((p) => describeProblem(file, p))
        .join('\n'),
    );
  }
}

function fieldName(path: readonly PropertyKey[]): string {
  return path
    .map((segment, i) =>
      typeof segment === 'number' ? `[${segment}]` : `${i === 0 ? '' : '.'}${String(segment)}`,
    )
    .join('');
}

/** How an unknown key is named: suites say "Unknown assertion" inside an `assert` list. */
export type UnknownKeyWords = (path: readonly PropertyKey[], key: string) => string;

const unknownField: UnknownKeyWords = (_path, key) => `Unknown field "${key}".`;

/** zod's issues as path problems; a union's issue becomes the issues of the branch that got furthest. */
function zodProblems(
  issues: readonly z.core.$ZodIssue[],
  unknownKey: UnknownKeyWords = unknownField,
  prefix: PropertyKey[] = [],
): PathProblem[] {
  const out: PathProblem[] = [];
  const unknownKeysAt = new Set(
    issues.filter((i) => i.code === 'unrecognized_keys').map((i) => i.path.join('.')),
  );
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    // An unknown key says more than a refinement that failed because of it.
    if (issue.code === 'custom' && unknownKeysAt.has(issue.path.join('.'))) continue;
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ path, key, message: unknownKey(path, key) });
    } else if (issue.code === 'invalid_union') {
      const depth = (branch: readonly z.core.$ZodIssue[]): number =>
        Math.max(0, ...branch.map((i) => i.path.length + (i.code === 'unrecognized_keys' ? 1 : 0)));
      const deepest = [...issue.errors].sort((a, b) => depth(b) - depth(a))[0];
      if (deepest && depth(deepest) > 0) out.push(...zodProblems(deepest, unknownKey, path));
      else out.push({ path, message: issue.message });
    } else if (issue.code === 'invalid_type' && issue.message.endsWith('received undefined')) {
      out.push({ path: path.slice(0, -1), message: `Missing the required field "${String(path.at(-1))}".` });
    } else {
      out.push({ path, message: issue.message });
    }
  }
  return out;
}

export interface ParsedYaml<T> {
  value: T;
  doc: Document;
  /** Places a path problem on its line. */
  at(problem: PathProblem): FileProblem;
  lineOf(path: PropertyKey[], key?: string): number;
}

/**
 * Parses one YAML document and checks it with `schema`. Throws `makeError(file, problems)` (a
 * YamlFileError or a kind of it) naming every problem; `empty` is what an empty file is told.
 */
export function parseYamlFile<S extends z.ZodType>(
  text: string,
  file: string,
  schema: S,
  options: {
    empty: string;
    /** What a file with several YAML documents (---) is told. */
    oneDocument?: string;
    unknownKey?: UnknownKeyWords;
    makeError?: (file: string, problems: FileProblem[]) => YamlFileError;
  },
): ParsedYaml<z.output<S>> {
  const fail = (problems: FileProblem[]): never => {
    throw (options.makeError ?? ((f, p) => new YamlFileError(f, p)))(file, problems);
  };
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length > 0) {
    fail(
      doc.errors.map((e) => ({
        line: e.linePos?.[0].line,
        col: e.linePos?.[0].col,
        message:
          e.code === 'MULTIPLE_DOCS'
            ? (options.oneDocument ?? 'This file holds more than one YAML document (---); it takes one.')
            : (e.message.split('\n')[0] ?? e.message).replace(/ at line \d+, column \d+:?$/, '.'),
      })),
    );
  }
  const at = (problem: PathProblem): FileProblem => {
    const pos = locateInYaml(doc, lines, problem.path, problem.key);
    const field = fieldName(problem.key !== undefined ? [...problem.path, problem.key] : problem.path);
    return { line: pos.line, col: pos.col, ...(field ? { field } : {}), message: problem.message };
  };
  const raw: unknown = doc.toJS({ maxAliasCount: 100 });
  if (raw === null || raw === undefined) fail([{ line: 1, col: 1, message: options.empty }]);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) fail(zodProblems(parsed.error.issues, options.unknownKey).map(at));
  return {
    value: (parsed as { data: z.output<S> }).data,
    doc,
    at,
    lineOf: (path, key) => locateInYaml(doc, lines, path, key).line,
  };
}
