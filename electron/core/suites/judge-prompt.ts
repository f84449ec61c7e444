// What a grading agent is sent and how its answer is read (docs/architecture.md, "Judges"). The
// prompt is a template a suite may replace (`grader.prompt`); the answer is read tolerantly, since
// a model asked for JSON often wraps it in a fenced block or a sentence, or answers with a number.
import type { Verdict } from '../../../shared/suite-run';

/** The template sent to a grader unless the suite gives its own (README, "Judges"). */
export const DEFAULT_JUDGE_PROMPT = `You grade one reply of an AI agent against a rubric.

<rubric>
{{rubric}}
</rubric>

<conversation>
{{conversation}}
</conversation>

<message>
{{message}}
</message>

<reply>
{{reply}}
</reply>

Score how well the reply meets the rubric, from 1 (not at all) to 5 (fully). Answer with JSON only:
{"score": <1-5>, "pass": <true|false>, "reason": "<one sentence>"}`;

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/g;
const PLACEHOLDERS = ['rubric', 'message', 'reply', 'conversation'] as const;

/**
 * What is wrong with a suite's prompt template, in words; undefined when nothing is. `known` are the
 * placeholders it may use, `required` those it must, `who` names the prompt's reader.
 */
export function placeholderProblem(
  template: string,
  known: readonly string[],
  required: readonly string[],
  who: { prompt: string; without: string },
): string | undefined {
  const names = [...template.matchAll(PLACEHOLDER)].map((m) => m[1] as string);
  const unknown = names.find((n) => !known.includes(n));
  if (unknown !== undefined) {
    return `Unknown placeholder {{${unknown}}}: ${who.prompt} fills ${known.map((p) => `{{${p}}}`).join(', ')}.`;
  }
  const missing = required.filter((n) => !names.includes(n));
  if (missing.length > 0) {
    return `${who.prompt[0]?.toUpperCase()}${who.prompt.slice(1)} needs ${missing.map((p) => `{{${p}}}`).join(' and ')}: ${who.without}.`;
  }
  return undefined;
}

/** What is wrong with a suite's grader template, in words; undefined when nothing is. */
export function templateProblem(template: string): string | undefined {
  return placeholderProblem(template, PLACEHOLDERS, ['rubric', 'reply'], {
    prompt: 'a grader prompt',
    without: 'the grader cannot judge without it',
  });
}

/** The rubric a `similar-to` check is graded with. */
export function similarRubric(text: string): string {
  return `The reply means the same as "${text}".`;
}

/** Earlier turns as the grader reads them; the first turn has none. */
export function conversationText(turns: readonly { message: string; reply: string }[]): string {
  if (turns.length === 0) return '(none: this is the first turn)';
  return turns.map((t, i) => `Turn ${i + 1} user: ${t.message}\nTurn ${i + 1} agent: ${t.reply}`).join('\n');
}

/** The template with its placeholders filled, in one pass (a reply saying "{{rubric}}" stays as said). */
export function fillPrompt(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(PLACEHOLDER, (whole, name: string) =>
    Object.hasOwn(values, name) ? (values[name] as string) : whole,
  );
}

const FENCED = /```[A-Za-z0-9_-]*[ \t]*\r?\n([\s\S]*?)\r?\n[ \t]*```/;
const OBJECT = /\{[\s\S]*\}/;
const BARE_SCORE = /^\s*(?:score\s*[:=]?\s*)?([1-5])(?:\s*\/\s*5)?\s*\.?\s*$/i;

function fromObject(value: unknown, agent: string): Verdict | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const score = typeof v.score === 'string' ? Number(v.score) : v.score;
  const hasScore = typeof score === 'number' && Number.isFinite(score) && score >= 1 && score <= 5;
  const hasPass = typeof v.pass === 'boolean';
  if (!hasScore && !hasPass) return undefined;
  return {
    agent,
    ...(hasScore ? { score } : {}),
    ...(hasPass ? { pass: v.pass as boolean } : {}),
    reason: typeof v.reason === 'string' ? v.reason : '',
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The verdict in a grader's answer: the whole answer as JSON, else its fenced block, else the first
 * {…} in it, else a bare score ("4", "4/5", "Score: 4"). Undefined: the answer is no verdict.
 */
export function readVerdict(answer: string, agent: string): Verdict | undefined {
  const fenced = FENCED.exec(answer)?.[1];
  const object = OBJECT.exec(answer)?.[0];
  for (const candidate of [answer, fenced, object]) {
    if (candidate === undefined) continue;
    const verdict = fromObject(parseJson(candidate), agent);
    if (verdict) return verdict;
  }
  const bare = BARE_SCORE.exec(answer);
  return bare ? { agent, score: Number(bare[1]), reason: '' } : undefined;
}
