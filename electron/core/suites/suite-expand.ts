// From a validated suite file to the cases a run sends: defaults applied, one case per row of a
// `vars` table, {{variables}} substituted, messages generated, and the rules a schema cannot say
// (a stream assertion in an unstreamed case, `remembers` in a first turn, a regex or JSON Schema
// that does not compile, an environment variable the file may not read) reported as problems at
// the path where they were written.
import {
  STREAM_ONLY_KINDS,
  type AssertionKind,
  type SuiteAssertion,
  type SuiteFile,
} from '../../../shared/suite';
import type { Check, PlannedCase, PlannedStep } from '../../../shared/suite-run';
import type { PathProblem } from '../yaml-file';
import type { Dataset } from './dataset';
import { DEFAULT_JUDGE_PROMPT, similarRubric, templateProblem } from './judge-prompt';
import { compileJsonSchema } from './json-schema-check';
import { compileLinearRegex } from './linear-regex';
import { expandSimulation, ONLY_SIMULATED, type PlanChecks } from './simulate-expand';
import { suiteEnv, type EnvRead, type SuiteEnvOptions } from './suite-env';

/** The line a path (and optionally a key of the map there) was written on. */
export type LineAt = (path: PropertyKey[], key?: string) => number;

const VARIABLE = /\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/g;

/** A variable's value; `{ refused }` when the file may not read it here. */
type Lookup = (name: string) => string | Exclude<EnvRead, { value: string }>;

class Expansion {
  readonly problems: PathProblem[] = [];
  private readonly seen = new Set<string>();

  constructor(readonly lineAt: LineAt) {}

  problem(path: PropertyKey[], message: string, key?: string): void {
    // A table of inputs repeats a case's problems once per row: say each once.
    const id = `${path.join('.')}|${key ?? ''}|${message}`;
    if (this.seen.has(id)) return;
    this.seen.add(id);
    this.problems.push({ path, message, ...(key !== undefined ? { key } : {}) });
  }

  interpolate(text: string, lookup: Lookup, path: PropertyKey[], key?: string): string {
    return text.replace(VARIABLE, (whole, name: string) => {
      const value = lookup(name);
      if (typeof value === 'string') return value;
      if (value !== undefined) {
        this.problem(path, value.refused, key);
        return whole;
      }
      this.problem(
        path,
        name.startsWith('env.')
          ? `The environment variable ${name.slice(4)} is not set (used as {{${name}}}).`
          : `Unknown variable {{${name}}}: define it in the case's vars or the suite's vars (or list an environment variable under env: and use {{env.NAME}}).`,
        key,
      );
      return whole;
    });
  }
}

/** A message of `bytes` UTF-8 bytes made of `fill` repeated, never splitting a character. */
function fillMessage(fill: string, bytes: number): string {
  const unit = Buffer.byteLength(fill, 'utf8');
  let text = fill.repeat(Math.floor(bytes / unit));
  let left = bytes - Math.floor(bytes / unit) * unit;
  for (const char of fill) {
    const size = Buffer.byteLength(char, 'utf8');
    if (size > left) break;
    text += char;
    left -= size;
  }
  return text;
}

function rowLabel(row: Record<string, string>): string {
  return Object.entries(row)
    .map(([k, v]) => `${k}=${v.length > 24 ? `${v.slice(0, 23)}…` : v}`)
    .join(', ');
}

interface RawStep {
  messagePath: PropertyKey[];
  messageKey: string | undefined;
  message: SuiteFile['cases'][number]['message'];
  assertPath: PropertyKey[];
  assert: SuiteAssertion[];
}

function rawSteps(c: SuiteFile['cases'][number], base: PropertyKey[], x: Expansion): RawStep[] {
  if (c.steps && c.message !== undefined) {
    x.problem(base, 'A case has either `message` (one turn) or `steps` (several), not both.', 'message');
  }
  if (c.steps && c.assert) {
    x.problem(base, '`assert` goes inside each step when a case has steps.', 'assert');
  }
  if (c.steps) {
    return c.steps.map((s, i) => ({
      messagePath: [...base, 'steps', i],
      messageKey: 'message',
      message: s.message,
      assertPath: [...base, 'steps', i, 'assert'],
      assert: s.assert ?? [],
    }));
  }
  if (c.message === undefined) {
    x.problem(base, 'A case needs a `message` (one turn) or `steps` (several turns).');
    return [];
  }
  return [
    {
      messagePath: base,
      messageKey: 'message',
      message: c.message,
      assertPath: [...base, 'assert'],
      assert: c.assert ?? [],
    },
  ];
}

/** How the suite's judges are graded unless one says otherwise (`grader:`). */
interface Grading {
  agent?: string | undefined;
  profile?: string | undefined;
  prompt: string;
}

type JudgeSpec = NonNullable<SuiteAssertion['judge']> | NonNullable<SuiteAssertion['similar-to']>;

function judgeCheck(
  kind: 'judge' | 'similar-to',
  spec: JudgeSpec,
  line: number,
  text: (s: string) => string,
  report: (message: string) => void,
  grading: Grading,
): Check {
  const agent = spec.agent ?? grading.agent;
  if (agent === undefined) {
    report(`${kind} needs a grading agent: give it \`agent:\`, or the suite \`grader: { agent: … }\`.`);
  }
  const profile = spec.profile ?? grading.profile;
  const common = {
    line,
    agent: agent ?? '',
    ...(profile !== undefined ? { profile } : {}),
    prompt: grading.prompt,
  };
  if ('rubric' in spec) return { kind: 'judge', rubric: text(spec.rubric), pass: spec.pass ?? 4, ...common };
  const similar = text(spec.text);
  return {
    kind: 'similar-to',
    text: similar,
    rubric: similarRubric(similar),
    min: spec.min ?? 0.8,
    ...common,
  };
}

function buildCheck(
  kind: AssertionKind,
  value: NonNullable<SuiteAssertion[AssertionKind]>,
  line: number,
  text: (s: string) => string,
  report: (message: string) => void,
  grading: Grading,
): Check | undefined {
  switch (kind) {
    case 'judge':
    case 'similar-to':
      return judgeCheck(kind, value as JudgeSpec, line, text, report, grading);
    case 'contains':
    case 'not-contains':
    case 'equals':
    case 'starts-with':
      return { kind, line, text: text(value as string) };
    case 'regex': {
      const spec =
        typeof value === 'string' ? { pattern: value } : (value as { pattern: string; flags?: string });
      const pattern = text(spec.pattern);
      const flags = spec.flags ?? '';
      try {
        compileLinearRegex(pattern, flags);
      } catch (error) {
        report((error as Error).message);
      }
      return { kind, line, pattern, flags };
    }
    case 'json': {
      if (value === true) return { kind, line };
      const schema = (value as { schema: Record<string, unknown> }).schema;
      try {
        compileJsonSchema(schema);
      } catch (error) {
        report(`The JSON Schema is not valid: ${(error as Error).message}`);
      }
      return { kind, line, schema };
    }
    case 'max-length':
    case 'min-length':
      return { kind, line, length: value as number };
    case 'ttft-ms':
    case 'total-ms':
    case 'max-gap-ms':
      return { kind, line, ms: value as number };
    case 'min-chunks':
      return { kind, line, count: value as number };
    case 'completes':
      return { kind, line, value: value as boolean };
    case 'status':
      return { kind, line, status: value as number };
    case 'code':
      return { kind, line, code: text(value as string) };
    case 'remembers': {
      // Resolved against the earlier turns by the caller.
      if (typeof value !== 'object') return { kind, line, text: text(value as string) };
      if ('turn' in value) return { kind, line, text: '', turn: value.turn };
      const { fact, 'from-turn': fromTurn } = value as { fact: string; 'from-turn'?: number };
      return { kind, line, fact: text(fact), ...(fromTurn !== undefined ? { fromTurn } : {}) };
    }
    case 'turns-at-most':
      return { kind, line, turns: value as number };
  }
}

/** One row of a case's inputs: from its `vars` table, or a line of its `vars-file`. */
interface Row {
  values: Record<string, string>;
  /** For a dataset's row: its file's name and line, which name the case. */
  at?: string;
}

/** A case's rows, one at a time: a dataset's are not copied into a second list. */
function* rowsOf(c: SuiteFile['cases'][number], dataset: Dataset | undefined): Generator<Row | undefined> {
  if (dataset) {
    for (const r of dataset.rows) yield { values: r.values, at: `${dataset.name}:${r.line}` };
  } else if (c.vars) {
    for (const values of c.vars) yield { values };
  } else {
    yield undefined;
  }
}

function expandCase(
  file: SuiteFile,
  ci: number,
  row: Row | undefined,
  ri: number,
  env: ReturnType<typeof suiteEnv>,
  x: Expansion,
  grading: Grading,
): PlannedCase | undefined {
  const c = file.cases[ci] as SuiteFile['cases'][number];
  const base: PropertyKey[] = ['cases', ci];
  const lookup: Lookup = (name) => {
    if (!name.startsWith('env.')) return row?.values[name] ?? file.vars?.[name];
    const read = env.read(name.slice(4));
    return read && 'value' in read ? read.value : read;
  };
  // A name ends up in every report (stdout, JUnit, the Tests screen), where a secret must never be:
  // names take the file's own variables only, declared environment or not.
  const labelLookup: Lookup = (name) =>
    name.startsWith('env.')
      ? { refused: `Names are shown in reports; they cannot read the environment ({{${name}}}).` }
      : lookup(name);
  const thread = c.thread ?? file.defaults?.thread ?? false;
  if (thread && c.stream === true) {
    x.problem(base, 'Thread replies are not streamed (thread: true): remove `stream: true`.', 'stream');
  }
  const stream = !thread && (c.stream ?? file.defaults?.stream ?? true);
  const named = c.name.includes('{{');
  const name = named
    ? x.interpolate(c.name, labelLookup, base, 'name')
    : row
      ? `${c.name} [${row.at ?? rowLabel(row.values)}]`
      : c.name;
  const planned = {
    key: row ? `${ci + 1}.${ri + 1}` : `${ci + 1}`,
    name,
    line: x.lineAt(base),
    stream,
    thread,
    ...(c.title !== undefined ? { title: x.interpolate(c.title, labelLookup, base, 'title') } : {}),
    repeat: c.repeat ?? file.defaults?.repeat ?? 1,
  };
  /** A list of assertions as checks, each problem reported where it was written. */
  const planChecks: PlanChecks = (list, path, vet) => {
    const checks: Check[] = [];
    for (const [ai, entry] of list.entries()) {
      const at = [...path, ai];
      for (const [kind, value] of Object.entries(entry) as [AssertionKind, SuiteAssertion[AssertionKind]][]) {
        if (value === undefined) continue;
        const report = (m: string): void => x.problem(at, m, kind);
        if (!stream && STREAM_ONLY_KINDS.includes(kind)) {
          report(
            `${kind} needs a streamed reply, and this case is not streamed (${thread ? 'thread: true' : 'stream: false'}).`,
          );
        }
        const check = buildCheck(
          kind,
          value,
          x.lineAt(at, kind),
          (s) => x.interpolate(s, lookup, at, kind),
          report,
          grading,
        );
        if (!check) continue;
        vet?.(check, report);
        checks.push(check);
      }
    }
    return checks;
  };
  if (c.simulate) {
    const simulate = expandSimulation(c, base, {
      problem: (path, message, key) => x.problem(path, message, key),
      text: (value, path, key) => x.interpolate(value, lookup, path, key),
      lineAt: x.lineAt,
      planChecks,
    });
    return { ...planned, steps: [], simulate };
  }
  if (c['each-turn']) {
    x.problem(
      base,
      '`each-turn` checks every reply of a simulated conversation: this case has no simulate.',
      'each-turn',
    );
  }
  const steps: PlannedStep[] = [];
  for (const [si, raw] of rawSteps(c, base, x).entries()) {
    let message: string;
    if (typeof raw.message === 'object') {
      message = fillMessage(
        x.interpolate(raw.message.fill, lookup, raw.messagePath, 'message'),
        raw.message.bytes,
      );
    } else {
      message = x.interpolate(raw.message as string, lookup, raw.messagePath, raw.messageKey);
    }
    const checks = planChecks(raw.assert, raw.assertPath, (check, report) => {
      if (check.kind === 'turns-at-most' || (check.kind === 'remembers' && 'fact' in check)) {
        report(`${ONLY_SIMULATED} (this case has no simulate).`);
        return;
      }
      if (check.kind !== 'remembers') return;
      const earlier = steps.map((s) => s.message);
      if (si === 0) {
        report(
          'remembers checks that a later turn refers to an earlier one: it cannot be in the first turn.',
        );
      } else if (check.turn !== undefined) {
        if (check.turn > si)
          report(
            `remembers turn ${check.turn}: ${si === 1 ? 'only turn 1 comes' : `only turns 1 to ${si} come`} before this one.`,
          );
        else check.text = earlier[check.turn - 1] as string;
      } else if (!earlier.some((m) => m.includes(check.text))) {
        report(`remembers "${check.text}": no earlier turn of this case says it.`);
      }
    });
    steps.push({ line: x.lineAt(raw.messagePath, raw.messageKey), message, checks });
  }
  if (steps.length === 0) return undefined;
  return { ...planned, steps };
}

/** The planned cases of a suite file, and every problem found on the way. */
export function expandSuite(
  file: SuiteFile,
  environment: Readonly<Record<string, string | undefined>>,
  lineAt: LineAt,
  options: SuiteEnvOptions = {},
  /** Each `vars-file` case's rows; undefined for one that could not be read (not expanded). */
  datasets: ReadonlyMap<number, Dataset | undefined> = new Map(),
): { cases: PlannedCase[]; problems: PathProblem[] } {
  const x = new Expansion(lineAt);
  const env = suiteEnv(file.env, environment, options);
  for (const p of env.problems) x.problem(p.path, p.message, p.key);
  const prompt = file.grader?.prompt ?? DEFAULT_JUDGE_PROMPT;
  const promptProblem = templateProblem(prompt);
  if (promptProblem) x.problem(['grader'], promptProblem, 'prompt');
  const grading: Grading = { agent: file.grader?.agent, profile: file.grader?.profile, prompt };
  const cases: PlannedCase[] = [];
  const names = new Map<string, number>();
  for (const [ci, c] of file.cases.entries()) {
    if (c.vars && c['vars-file'] !== undefined) {
      x.problem(
        ['cases', ci],
        'A case takes its rows from `vars` or from `vars-file`, not both.',
        'vars-file',
      );
    }
    if (datasets.has(ci) && datasets.get(ci) === undefined) continue;
    let ri = 0;
    for (const row of rowsOf(c, datasets.get(ci))) {
      const planned = expandCase(file, ci, row, ri++, env, x, grading);
      if (!planned) continue;
      const earlier = names.get(planned.name);
      if (earlier !== undefined) {
        x.problem(
          ['cases', ci],
          `Two cases are named "${planned.name}" (the other is on line ${earlier}).`,
          'name',
        );
      } else {
        names.set(planned.name, planned.line);
      }
      cases.push(planned);
    }
  }
  return { cases, problems: x.problems };
}
