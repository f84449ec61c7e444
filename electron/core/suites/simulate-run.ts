// A simulated conversation (README, "Simulated conversations"): each turn, the simulating agent
// is sent the goal, the persona and the transcript so far, and its answer is sent to the agent
// under test as the user's message — both through the same SuiteExchange, so through the key's one
// limiter. Every reply is checked (`each-turn`); the conversation ends when a reply meets `until`
// (passed) or at `max-turns` (failed, saying so); then the whole conversation is checked.
import type {
  Check,
  CheckResult,
  PlannedSimulation,
  PlannedStep,
  StepResult,
} from '../../../shared/suite-run';
import { redactSecrets } from '../redact';
import { evaluate, isJudged, quote } from './assertions';
import { askAgent, callFailure, grade, helperProfile, type GradeContext } from './judge';
import { conversationText, fillPrompt } from './judge-prompt';
import { gradingContext, maskCheck, notSentStep, runStep, type StepContext } from './suite-step';

type Turn = { message: string; reply: string };

export interface SimulationOutcome {
  steps: StepResult[];
  threadId?: string;
  cancelled: boolean;
  failed: boolean;
}

/** The turn the fact was said in (1-based), and the first later turn whose reply repeats it. */
function rememberedFact(
  check: { fact: string; fromTurn?: number },
  turns: readonly Turn[],
): Pick<CheckResult, 'passed' | 'expected' | 'actual'> {
  const expected = `a reply after ${check.fromTurn !== undefined ? `turn ${check.fromTurn}` : 'the user says it'} repeats ${quote(check.fact)}`;
  const said = check.fromTurn ?? turns.findIndex((t) => t.message.includes(check.fact)) + 1;
  if (said === 0 || !turns[said - 1]?.message.includes(check.fact)) {
    const where =
      check.fromTurn !== undefined ? `turn ${check.fromTurn}'s message` : 'no message of the user';
    return {
      passed: false,
      expected,
      actual: `${where} ${check.fromTurn !== undefined ? 'does not say it' : 'says it'}`,
    };
  }
  const repeated = turns.findIndex((t, i) => i >= said && t.reply.includes(check.fact));
  return repeated >= 0
    ? { passed: true, expected, actual: `said in turn ${said}, repeated in turn ${repeated + 1}'s reply` }
    : {
        passed: false,
        expected,
        actual: `said in turn ${said}; ${said < turns.length ? `no reply of turns ${said + 1}–${turns.length} repeats it` : 'no later turn came'}`,
      };
}

/** A check of the whole conversation, once it has ended. */
async function checkConversation(
  check: Check,
  turns: readonly Turn[],
  grading: GradeContext,
): Promise<{ result: CheckResult; rateLimited: number }> {
  const last = turns.at(-1) as Turn;
  if (isJudged(check)) {
    const { outcome, rateLimited } = await grade(
      check,
      { message: last.message, reply: last.reply, earlier: turns.slice(0, -1) },
      grading,
    );
    return { result: { kind: check.kind, line: check.line, ...outcome }, rateLimited };
  }
  const outcome =
    check.kind === 'turns-at-most'
      ? {
          passed: turns.length <= check.turns,
          expected: `at most ${check.turns} turns`,
          actual: `${turns.length} turn${turns.length === 1 ? '' : 's'}`,
        }
      : check.kind === 'remembers' && 'fact' in check
        ? rememberedFact(check, turns)
        : evaluate(check, {
            reply: last.reply,
            streamed: false,
            chunkTimesMs: [],
            completed: true,
            status: 200,
          });
  return { result: { kind: check.kind, line: check.line, ...outcome }, rateLimited: 0 };
}

/** The simulating agent's next message, or why there is none. */
async function nextMessage(
  sim: PlannedSimulation,
  turns: readonly Turn[],
  ctx: StepContext,
): Promise<{
  message?: string;
  failure?: string;
  requestId?: string;
  totalMs?: number;
  rateLimited: number;
}> {
  const prompt = fillPrompt(sim.prompt, {
    goal: sim.goal,
    persona: sim.persona || '(none given)',
    conversation: conversationText(turns),
  });
  const grading = gradingContext(ctx);
  const asked = await askAgent(grading, () => helperProfile(sim.profile, grading), sim.agent, prompt);
  if (!asked.reply) {
    return {
      failure: `${sim.agent} could not be asked (${callFailure(asked.error)})`,
      rateLimited: asked.rateLimited,
    };
  }
  const message = asked.reply.response.trim();
  const meta = {
    ...(asked.reply.requestId ? { requestId: asked.reply.requestId } : {}),
    ...(asked.reply.totalMs !== undefined ? { totalMs: asked.reply.totalMs } : {}),
    rateLimited: asked.rateLimited,
  };
  return message === ''
    ? { failure: `${sim.agent} answered with nothing to send`, ...meta }
    : { message, ...meta };
}

/** Runs the conversation of one attempt; `ctx.earlier` is filled as it goes. */
export async function runSimulation(ctx: StepContext, sim: PlannedSimulation): Promise<SimulationOutcome> {
  const steps: StepResult[] = [];
  const turns: Turn[] = [];
  let threadId = ctx.threadId;
  for (let index = 0; index < sim.maxTurns; index++) {
    const step: PlannedStep = { line: sim.line, message: '', checks: sim.eachTurn };
    if (ctx.signal?.aborted) {
      return { steps: [...steps, notSentStep(step, index, 'cancelled')], cancelled: true, failed: false };
    }
    const next = await nextMessage(sim, turns, ctx);
    const simulated = {
      agent: sim.agent,
      ...(next.requestId ? { requestId: next.requestId } : {}),
      ...(next.totalMs !== undefined ? { totalMs: next.totalMs } : {}),
    };
    if (next.message === undefined) {
      const check: CheckResult = {
        kind: 'reply',
        line: sim.line,
        passed: false,
        expected: `the simulated user's message from ${sim.agent}`,
        actual: redactSecrets(next.failure ?? ''),
      };
      const notSent = notSentStep(step, index, 'skipped');
      steps.push({ ...notSent, rateLimited: next.rateLimited, checks: [check], simulated });
      return {
        steps,
        ...(threadId ? { threadId } : {}),
        cancelled: ctx.signal?.aborted === true,
        failed: true,
      };
    }
    const outcome = await runStep(
      { ...ctx, threadId, earlier: [...turns] },
      { ...step, message: next.message },
      index,
    );
    threadId ??= outcome.threadId;
    const result = {
      ...outcome.result,
      rateLimited: outcome.result.rateLimited + next.rateLimited,
      simulated,
    };
    steps.push(result);
    if (outcome.cancelled)
      return { steps, ...(threadId ? { threadId } : {}), cancelled: true, failed: false };
    turns.push({ message: result.message, reply: result.reply });
    if (result.checks.some((c) => !c.passed)) {
      return { steps, ...(threadId ? { threadId } : {}), cancelled: false, failed: true };
    }
    const until = evaluate(sim.until, {
      reply: result.reply,
      streamed: result.streamed,
      chunkTimesMs: [],
      completed: true,
      status: result.status,
    });
    if (until.passed) break;
    if (index === sim.maxTurns - 1) {
      result.checks.push({
        kind: 'until',
        line: sim.until.line,
        passed: false,
        expected: `a reply that ${until.expected} within ${sim.maxTurns} turns`,
        actual: `max-turns (${sim.maxTurns}) reached without it; the last reply: ${redactSecrets(quote(result.reply, 120))}`,
      });
    }
  }
  const last = steps.at(-1) as StepResult;
  for (const check of sim.conversation) {
    const { result, rateLimited } = await checkConversation(check, turns, gradingContext(ctx));
    last.rateLimited += rateLimited;
    last.checks.push(maskCheck(result));
  }
  const failed = last.checks.some((c) => !c.passed);
  return { steps, ...(threadId ? { threadId } : {}), cancelled: false, failed };
}
