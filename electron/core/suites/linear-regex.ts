// Regular expressions a suite or monitors file writes — `regex:` assertions, a JSON Schema's
// `pattern` and `patternProperties` — run on RE2's linear-time engine (re2js), never on
// JavaScript's backtracking one: a file may come from a pull request, and `(a+)+$` on a reply of
// 100,000 a's and a b would keep JavaScript busy for longer than anyone waits. What RE2 cannot do
// in linear time (lookaround, backreferences) is refused in words when the file loads; the rest of
// JavaScript's syntax is translated so that it means what it means in JavaScript. And since linear
// can still be long (a large pattern's cost is its size times the reply's length), each check has
// a budget of work it may not pass (docs/security.md, "Suite and monitors files").
import { RE2JS } from 're2js';

/** What a pattern cannot be run for, in words a suite author can act on. */
export class PatternError extends Error {
  override readonly name = 'PatternError';
}

/** A check whose patterns would cost more than the budget: not run, and failed with these words. */
export class PatternBudgetError extends Error {
  override readonly name = 'PatternBudgetError';
}

const WHY = 'suite patterns run on a linear-time engine.';

/**
 * The work one check may do: the pattern's program size times the length of the text it runs on,
 * added up over every pattern the check runs (a JSON Schema's run once per string). The engine's
 * slowest path costs tens of nanoseconds per unit on a small machine, so this is about a second at
 * worst; the usual pattern takes its fast path and a few milliseconds.
 */
const WORK_BUDGET = 30_000_000;

/** JavaScript's \s: ASCII space and controls, and Unicode's spaces (RE2's \s is ASCII only). */
const JS_SPACES: readonly (readonly [number, number])[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];

const hex = (code: number): string => `\\x{${code.toString(16)}}`;
const range = ([from, to]: readonly [number, number]): string =>
  from === to ? hex(from) : `${hex(from)}-${hex(to)}`;

/** \s and \S as the members of a character class. */
const SPACE_MEMBERS = JS_SPACES.map(range).join('');
const NOT_SPACE_MEMBERS = (() => {
  const gaps: [number, number][] = [];
  let next = 0;
  for (const [from, to] of JS_SPACES) {
    if (from > next) gaps.push([next, from - 1]);
    next = to + 1;
  }
  gaps.push([next, 0x10ffff]);
  return gaps.map(range).join('');
})();

/** JavaScript's `.` without the s flag: anything but a line terminator. */
const DOT = '[^\\n\\r\\x{2028}\\x{2029}]';

const unsupported = (what: string): PatternError => new PatternError(`${what}: ${WHY}`);

/**
 * A JavaScript pattern in RE2's syntax: capturing groups become non-capturing (a test needs no
 * captures, and without them the engine keeps to its fast automaton), `.` and `\s` take
 * JavaScript's meaning, a class never reads `[[:alpha:]]` as POSIX, and what RE2 cannot do
 * throws a PatternError. re2js's translateRegExp then handles escapes both write differently.
 */
function toRe2(source: string, dotAll: boolean): string {
  let out = '';
  let inClass = false;
  // Each open group's dotAll, so a `(?s:…)` modifier group ends where its group does.
  const groups: boolean[] = [];
  let dot = dotAll;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i] as string;
    if (ch === '\\') {
      const next = source[i + 1];
      if (next === undefined) {
        out += ch;
        continue;
      }
      if (!inClass && next >= '1' && next <= '9') {
        const digits = /^\d+/.exec(source.slice(i + 1))?.[0] ?? next;
        throw unsupported(`backreferences (\\${digits}) are not supported`);
      }
      if (!inClass && next === 'k' && source[i + 2] === '<') {
        const end = source.indexOf('>', i);
        throw unsupported(
          `backreferences (${source.slice(i, end < 0 ? undefined : end + 1)}) are not supported`,
        );
      }
      i++;
      if (next === 's') out += inClass ? SPACE_MEMBERS : `[${SPACE_MEMBERS}]`;
      else if (next === 'S') out += inClass ? NOT_SPACE_MEMBERS : `[${NOT_SPACE_MEMBERS}]`;
      // In a class JavaScript's \b is a backspace.
      else if (next === 'b' && inClass) out += '\\x08';
      else out += ch + next;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      out += ch === '[' ? '\\[' : ch;
      continue;
    }
    if (ch === '[') {
      const negated = source[i + 1] === '^';
      const first = i + (negated ? 2 : 1);
      // JavaScript's [] matches nothing and [^] anything; in RE2 a `]` there would be a member.
      if (source[first] === ']') {
        out += negated ? '[\\x00-\\x{10ffff}]' : '[^\\x00-\\x{10ffff}]';
        i = first;
        continue;
      }
      inClass = true;
      out += negated ? '[^' : '[';
      i = first - 1;
      continue;
    }
    if (ch === '(') {
      const rest = source.slice(i + 1, i + 4);
      if (rest.startsWith('?=') || rest.startsWith('?!')) throw unsupported('lookahead is not supported');
      if (rest.startsWith('?<=') || rest.startsWith('?<!')) throw unsupported('lookbehind is not supported');
      groups.push(dot);
      if (rest.startsWith('?<')) {
        // A named group: (?<name>…), captured for nothing here.
        const end = source.indexOf('>', i);
        if (end < 0) throw new PatternError('The regex does not compile: a group name is not closed with >.');
        i = end;
        out += '(?:';
        continue;
      }
      const modifiers = /^\?([a-z]*)(?:-([a-z]*))?:/.exec(source.slice(i + 1));
      if (modifiers) {
        if (modifiers[1]?.includes('s')) dot = true;
        if (modifiers[2]?.includes('s')) dot = false;
        out += `(${modifiers[0]}`;
        i += modifiers[0].length;
        continue;
      }
      out += '(?:';
      continue;
    }
    if (ch === ')') {
      dot = groups.pop() ?? dotAll;
      out += ch;
      continue;
    }
    out += ch === '.' ? (dot ? '(?s:.)' : DOT) : ch;
  }
  return out;
}

export interface LinearRegex {
  test(text: string): boolean;
  /** `/pattern/flags`, as written (ajv keys its compiled patterns by it). */
  toString(): string;
}

/** The work left to the check being evaluated; undefined outside one (each test has the whole budget). */
let budgetLeft: number | undefined;

/**
 * Runs one check's evaluation against one budget: every pattern it runs (a JSON Schema's, once per
 * string) draws on it. Throws PatternBudgetError, before running the pattern, when one would pass it.
 */
export function withinPatternBudget<T>(evaluate: () => T): T {
  const saved = budgetLeft;
  budgetLeft = WORK_BUDGET;
  try {
    return evaluate();
  } finally {
    budgetLeft = saved;
  }
}

class Compiled implements LinearRegex {
  private readonly size: number;

  constructor(
    private readonly engine: RE2JS,
    private readonly source: string,
    private readonly flags: string,
  ) {
    this.size = engine.programSize();
  }

  test(text: string): boolean {
    const cost = this.size * (text.length + 1);
    const left = budgetLeft ?? WORK_BUDGET;
    if (cost > left) {
      throw new PatternBudgetError(
        `not checked: a pattern this large on a reply of ${text.length.toLocaleString('en-US')} characters is past the time budget of suite patterns (the pattern is ${this.size} steps long; write a smaller one)`,
      );
    }
    if (budgetLeft !== undefined) budgetLeft -= cost;
    return this.engine.test(text);
  }

  toString(): string {
    return `/${this.source}/${this.flags}`;
  }
}

const cache = new Map<string, Compiled>();
/** Patterns are few per suite; this only bounds a long-running app that loads many suites. */
const CACHE_LIMIT = 500;

/**
 * A JavaScript pattern with JavaScript's flags on the linear-time engine: i, m, s as in
 * JavaScript; u changes nothing (the engine always matches whole characters, as JavaScript does
 * with u); d changes nothing (it only adds match indices); y anchors the match at the start of the
 * text, as a fresh sticky RegExp does. v's set notation has no counterpart and is refused by the
 * suite schema. Throws PatternError, in words, for what the engine cannot run.
 */
export function compileLinearRegex(source: string, flags = ''): LinearRegex {
  const id = `${flags}/${source}`;
  const known = cache.get(id);
  if (known) return known;
  if (flags.includes('v')) throw unsupported('the v flag (set notation) is not supported');
  // JavaScript's own syntax first (compiling runs nothing): its errors name what a JavaScript
  // author wrote, and the translation below may assume a well-formed pattern.
  try {
    new RegExp(source, flags);
  } catch (error) {
    throw new PatternError(`The regex does not compile: ${(error as Error).message}`);
  }
  let translated = RE2JS.translateRegExp(toRe2(source, flags.includes('s')));
  if (flags.includes('y')) translated = `\\A(?:${translated})`;
  let engine: RE2JS;
  try {
    engine = RE2JS.compile(
      translated,
      (flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0) | (flags.includes('m') ? RE2JS.MULTILINE : 0),
    );
  } catch (error) {
    const words = (error as Error).message.replace(/^error parsing regexp: /, '');
    throw new PatternError(`The regex does not compile on the linear-time engine: ${words}.`);
  }
  const compiled = new Compiled(engine, source, flags);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(id, compiled);
  return compiled;
}
