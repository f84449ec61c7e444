// The assertion engine: what one step observed (the reply, its chunks' times, how it ended) against
// one check, giving passed/failed with the expected and the actual in words a failure report can
// print as is. Pure functions of their inputs, so property tests can drive them.
import type { Check, CheckResult, JudgeCheck } from '../../../shared/suite-run';
import { schemaMismatch } from './json-schema-check';
import { compileLinearRegex, PatternBudgetError, PatternError, withinPatternBudget } from './linear-regex';

export interface Observation {
  /** The text received: the whole reply, or what arrived before a failure. */
  reply: string;
  streamed: boolean;
  /** Milliseconds from the request to each content chunk. */
  chunkTimesMs: readonly number[];
  ttftMs?: number | undefined;
  totalMs?: number | undefined;
  /** A whole reply: a 2xx answer, or for a stream, [DONE] with no error. */
  completed: boolean;
  /** HTTP status; 0 when none came. */
  status: number;
  /** ApiError code (AGENT_NOT_FOUND, STREAM_ERROR, STREAM_INCOMPLETE, NETWORK…). */
  code?: string | undefined;
  /** The error's own code where it has one: a stream event's `stream_error`. */
  errorType?: string | undefined;
  errorMessage?: string | undefined;
}

const CLIP = 300;

/** A quoted excerpt: JSON string syntax, so line breaks and spaces at the ends stay visible. */
export function quote(text: string, max = CLIP): string {
  const points = Array.from(text);
  return (
    JSON.stringify(points.length > max ? `${points.slice(0, max).join('')}…` : text) +
    (points.length > max ? ` (${points.length} characters)` : '')
  );
}

export function charLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** The longest pause between two consecutive chunks (the wait for the first is TTFT, not a gap). */
export function maxGapMs(times: readonly number[]): number {
  let max = 0;
  for (let i = 1; i < times.length; i++) max = Math.max(max, (times[i] as number) - (times[i - 1] as number));
  return max;
}

/** How a step ended, in words: "a complete reply", "404 AGENT_NOT_FOUND: …", "stream_error: …". */
function describeOutcome(obs: Observation): string {
  if (obs.completed)
    return obs.streamed ? 'a complete stream ([DONE])' : `a complete reply (HTTP ${obs.status})`;
  const code = obs.errorType && obs.code === 'STREAM_ERROR' ? obs.errorType : (obs.code ?? 'an error');
  const status = obs.status && !(obs.streamed && obs.status === 200) ? `${obs.status} ` : '';
  const partial = obs.reply ? ` after ${quote(obs.reply, 60)}` : '';
  return `${status}${code}${obs.errorMessage ? `: ${obs.errorMessage}` : ''}${partial}`;
}

function ms(value: number | undefined): string {
  return value === undefined ? 'none' : `${Math.round(value)} ms`;
}

function excerptAround(text: string, needle: string): string {
  const at = text.indexOf(needle);
  const start = Math.max(0, at - 40);
  const end = Math.min(text.length, at + needle.length + 40);
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

type Outcome = Pick<CheckResult, 'passed' | 'expected' | 'actual'>;

export function isJudged(check: Check): check is Check & JudgeCheck {
  return check.kind === 'judge' || check.kind === 'similar-to';
}

/**
 * A fenced block: opened anywhere (models put "Here it is: ```json" mid-line), closed by a fence at
 * the start of a line, as Markdown closes one, so "```" inside the JSON (a string, a key) does not.
 */
const FENCED_BLOCK = /```([A-Za-z0-9_-]*)[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?[ \t]*```/g;

/**
 * The JSON in a reply: the whole reply, else its fenced code block (```json first), which is how
 * chat models usually hand JSON back inside prose.
 */
function jsonIn(reply: string): { value: unknown; block: boolean } | { error: string } {
  try {
    return { value: JSON.parse(reply), block: false };
  } catch (error) {
    const blocks = [...reply.matchAll(FENCED_BLOCK)];
    const block = blocks.find((b) => b[1]?.toLowerCase() === 'json') ?? blocks.find((b) => b[1] === '');
    if (block) {
      try {
        return { value: JSON.parse(block[2] ?? ''), block: true };
      } catch (inner) {
        return { error: `its fenced block: ${(inner as Error).message}` };
      }
    }
    return { error: (error as Error).message };
  }
}

/** A check answered from the observation; a judged one needs its grader's outcome (judge.ts). */
export function evaluate(check: Check, obs: Observation): Outcome {
  const reply = obs.reply;
  switch (check.kind) {
    case 'judge':
    case 'similar-to':
      return { passed: false, expected: check.rubric, actual: 'not graded' };
    case 'contains':
      return {
        passed: reply.includes(check.text),
        expected: `contains ${quote(check.text)}`,
        actual: quote(reply),
      };
    case 'not-contains': {
      const found = reply.includes(check.text);
      return {
        passed: !found,
        expected: `does not contain ${quote(check.text)}`,
        actual: found ? `contains it: ${quote(excerptAround(reply, check.text))}` : quote(reply),
      };
    }
    case 'equals':
      return { passed: reply === check.text, expected: quote(check.text), actual: quote(reply) };
    case 'starts-with':
      return {
        passed: reply.startsWith(check.text),
        expected: `starts with ${quote(check.text)}`,
        actual: quote(reply),
      };
    case 'regex': {
      const expected = `matches /${check.pattern}/${check.flags}`;
      try {
        const regex = compileLinearRegex(check.pattern, check.flags);
        return { passed: withinPatternBudget(() => regex.test(reply)), expected, actual: quote(reply) };
      } catch (error) {
        if (!(error instanceof PatternBudgetError || error instanceof PatternError)) throw error;
        return { passed: false, expected, actual: error.message };
      }
    }
    case 'json': {
      const found = jsonIn(reply);
      const wanted = check.schema ? 'JSON matching the schema' : 'JSON';
      if ('error' in found)
        return { passed: false, expected: wanted, actual: `not JSON (${found.error}): ${quote(reply, 120)}` };
      const where = found.block ? ' (the ```json block of the reply)' : '';
      if (!check.schema) return { passed: true, expected: wanted, actual: `JSON${where}` };
      const mismatch = schemaMismatch(check.schema, found.value);
      return {
        passed: mismatch === undefined,
        expected: wanted,
        actual: mismatch === undefined ? `JSON matching the schema${where}` : `JSON${where}, but ${mismatch}`,
      };
    }
    case 'max-length': {
      const length = charLength(reply);
      return {
        passed: length <= check.length,
        expected: `≤ ${check.length} characters`,
        actual: `${length} characters`,
      };
    }
    case 'min-length': {
      const length = charLength(reply);
      return {
        passed: length >= check.length,
        expected: `≥ ${check.length} characters`,
        actual: `${length} characters`,
      };
    }
    case 'ttft-ms':
      return {
        passed: obs.ttftMs !== undefined && obs.ttftMs <= check.ms,
        expected: `first chunk within ${check.ms} ms`,
        actual: obs.ttftMs === undefined ? 'no chunk arrived' : ms(obs.ttftMs),
      };
    case 'total-ms':
      return {
        passed: obs.totalMs !== undefined && obs.totalMs <= check.ms,
        expected: `whole reply within ${check.ms} ms`,
        actual: ms(obs.totalMs),
      };
    case 'min-chunks': {
      const count = obs.chunkTimesMs.length;
      return { passed: count >= check.count, expected: `≥ ${check.count} chunks`, actual: `${count} chunks` };
    }
    case 'max-gap-ms': {
      const gap = maxGapMs(obs.chunkTimesMs);
      return {
        passed: gap <= check.ms,
        expected: `no gap between chunks over ${check.ms} ms`,
        actual: `longest gap ${Math.round(gap)} ms over ${obs.chunkTimesMs.length} chunks`,
      };
    }
    case 'completes':
      return {
        passed: obs.completed === check.value,
        expected: check.value ? 'ends with [DONE], no stream_error' : 'does not complete (an error or a cut)',
        actual: describeOutcome(obs),
      };
    case 'status':
      return {
        passed: obs.status === check.status,
        expected: `HTTP ${check.status}`,
        actual:
          obs.status === 0
            ? `no HTTP reply (${obs.code ?? 'unknown'})`
            : `HTTP ${obs.status}${obs.code && !obs.completed ? ` ${obs.code}` : ''}`,
      };
    case 'code': {
      const wanted = check.code.toLowerCase();
      const passed = [obs.code, obs.errorType].some((c) => c !== undefined && c.toLowerCase() === wanted);
      return {
        passed,
        expected: check.code,
        actual: obs.completed ? `no error (${describeOutcome(obs)})` : describeOutcome(obs),
      };
    }
    case 'turns-at-most':
      return {
        passed: false,
        expected: `at most ${check.turns} turns`,
        actual: 'not a simulated conversation',
      };
    case 'remembers':
      if ('fact' in check) {
        return {
          passed: false,
          expected: `remembers ${quote(check.fact)}`,
          actual: 'not a simulated conversation',
        };
      }
      return {
        passed: reply.includes(check.text),
        expected: `refers to ${check.turn !== undefined ? `turn ${check.turn}` : 'an earlier turn'}: contains ${quote(check.text)}`,
        actual: quote(reply),
      };
  }
}

/** A step that asserts no error outcome must have got a whole reply; true when it says otherwise. */
function expectsFailure(checks: readonly Check[]): boolean {
  return checks.some(
    (c) =>
      (c.kind === 'status' && (c.status < 200 || c.status >= 300)) ||
      c.kind === 'code' ||
      (c.kind === 'completes' && !c.value),
  );
}

/**
 * Every check of a step, led by the implicit "a whole reply came" when the step expects no error;
 * a judged check's outcome is the grader's, looked up in `judged`.
 */
export function evaluateStep(
  checks: readonly Check[],
  obs: Observation,
  stepLine: number,
  judged: ReadonlyMap<Check, Omit<CheckResult, 'kind' | 'line'>> = new Map(),
): CheckResult[] {
  const results: CheckResult[] = [];
  if (!expectsFailure(checks)) {
    results.push({
      kind: 'reply',
      line: stepLine,
      passed: obs.completed,
      expected: obs.streamed ? 'a complete stream ([DONE])' : 'a complete reply',
      actual: describeOutcome(obs),
    });
  }
  for (const check of checks) {
    const outcome = (isJudged(check) && judged.get(check)) || evaluate(check, obs);
    results.push({ kind: check.kind, line: check.line, ...outcome });
  }
  return results;
}
