// Judged checks (`judge`, `similar-to`): the case's message, its reply and the earlier turns go to a
// grading agent on the service with the rubric, through the same SuiteExchange as every turn — so
// through the key's one limiter, never a 429 of our own — and its verdict decides the check
// (docs/architecture.md, "Judges"). An answer that holds no verdict fails the check and says so.
import type { CheckResult, JudgeCheck, Verdict } from '../../../shared/suite-run';
import { ApiError } from '../api-error';
import type { Profile } from '../profiles';
import { quote } from './assertions';
import { conversationText, fillPrompt, readVerdict } from './judge-prompt';
import type { ExchangeReply, SuiteExchange } from './suite-exchange';

const MAX_429_RETRIES = 3;

export interface GradeContext {
  exchange: SuiteExchange;
  /** The target's profile: where a judge that names none is graded. */
  profile: Profile;
  /** A profile by name, for a judge that names one. */
  profileFor: ((name: string) => Profile) | undefined;
  signal: AbortSignal | undefined;
  /** A fresh session per grading, so no verdict remembers another (suite-step.ts's ids). */
  newSessionId: () => string;
}

export interface Graded {
  outcome: Omit<CheckResult, 'kind' | 'line'>;
  /** 429s the service answered to the grader's request (each retried once the limiter allowed). */
  rateLimited: number;
}

function clip(text: string, max = 200): string {
  const points = Array.from(text);
  return points.length > max ? `${points.slice(0, max).join('')}…` : text;
}

/** What the check asks for, in a failure report's words. */
function expectation(check: JudgeCheck): string {
  // The rubric as written: a rubric quotes words, which JSON's escapes would bury in backslashes.
  return check.kind === 'judge'
    ? `scored ≥ ${check.pass} of 5 by ${check.agent} against: ${clip(check.rubric)}`
    : `similar to ${quote(check.text, 120)} (≥ ${check.min}) by ${check.agent}`;
}

function decide(check: JudgeCheck, verdict: Verdict): { passed: boolean; actual: string } {
  const reason = verdict.reason ? `: ${verdict.reason}` : '';
  if (verdict.score === undefined) {
    return { passed: verdict.pass === true, actual: `no score, ${verdict.pass ? 'pass' : 'fail'}${reason}` };
  }
  if (check.kind === 'judge') {
    return { passed: verdict.score >= check.pass, actual: `${verdict.score} of 5${reason}` };
  }
  const similarity = verdict.score / 5;
  return {
    passed: similarity >= check.min,
    actual: `similarity ${similarity} (${verdict.score} of 5)${reason}`,
  };
}

/** The profile a helper agent is reached by: the named one, else the target's. */
export function helperProfile(name: string | undefined, ctx: GradeContext): Profile {
  if (name === undefined) return ctx.profile;
  if (!ctx.profileFor) throw new Error(`no profile named ${name} can be reached here`);
  return ctx.profileFor(name);
}

/** How a call that got no answer failed, in words. */
export function callFailure(error: unknown): string {
  return error instanceof ApiError
    ? `${error.status ? `${error.status} ` : ''}${error.code}: ${error.message}`
    : (error as Error).message;
}

/**
 * One chat with a helper agent (a grader, a simulated user) in a fresh session, so it remembers
 * nothing of another; 429s from another client on the key are waited out by the limiter and resent.
 */
export async function askAgent(
  ctx: GradeContext,
  profile: () => Profile,
  agent: string,
  message: string,
): Promise<{ reply?: ExchangeReply; error?: unknown; rateLimited: number }> {
  let rateLimited = 0;
  for (;;) {
    try {
      const input = { message, agent, session_id: ctx.newSessionId() };
      return { reply: await ctx.exchange.chat(profile(), input, { signal: ctx.signal }), rateLimited };
    } catch (error) {
      const refused = error instanceof ApiError && error.status === 429;
      if (refused && rateLimited < MAX_429_RETRIES && !ctx.signal?.aborted) {
        rateLimited++;
        continue;
      }
      return { error, rateLimited };
    }
  }
}

/** Asks the grader once and reads its verdict. */
export async function grade(
  check: JudgeCheck,
  exchange: { message: string; reply: string; earlier: readonly { message: string; reply: string }[] },
  ctx: GradeContext,
): Promise<Graded> {
  const expected = expectation(check);
  const prompt = fillPrompt(check.prompt, {
    rubric: check.rubric,
    message: exchange.message,
    reply: exchange.reply,
    conversation: conversationText(exchange.earlier),
  });
  const asked = await askAgent(ctx, () => helperProfile(check.profile, ctx), check.agent, prompt);
  const { rateLimited } = asked;
  if (!asked.reply) {
    const actual = `the grader could not be asked (${callFailure(asked.error)})`;
    return { outcome: { passed: false, expected, actual }, rateLimited };
  }
  const answer = asked.reply.response;
  const verdict = readVerdict(answer, check.agent);
  if (!verdict) {
    return {
      outcome: {
        passed: false,
        expected,
        actual: `the grader's answer is no verdict (no score 1–5, no pass): ${quote(answer, 200)}`,
      },
      rateLimited,
    };
  }
  return { outcome: { expected, ...decide(check, verdict), verdict }, rateLimited };
}
