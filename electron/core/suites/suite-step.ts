// One turn of one attempt: sent through the SuiteExchange (chat, stream, or thread), observed, and
// checked. A 429 the service answers (another client on the key: our limiter never sends one it
// knows will be refused) is waited out by the limiter and the turn sent again, a few times; the
// service did not process a refused request, so this duplicates nothing. Everything kept is masked.
import { randomUUID } from 'node:crypto';
import type {
  Check,
  CheckResult,
  PlannedCase,
  PlannedStep,
  RunFrame,
  StepResult,
} from '../../../shared/suite-run';
import { ApiError } from '../api-error';
import type { Profile } from '../profiles';
import { redactSecrets } from '../redact';
import { evaluateStep, isJudged, maxGapMs, type Observation } from './assertions';
import { grade, type GradeContext } from './judge';
import type { ExchangeReply, SuiteExchange } from './suite-exchange';

/** Frames kept per step; past it they are counted, not kept. */
const MAX_FRAMES_PER_STEP = 10_000;
const MAX_429_RETRIES = 3;

export interface StepContext {
  exchange: SuiteExchange;
  profile: Profile;
  agent: string | undefined;
  planned: PlannedCase;
  sessionId: string | undefined;
  threadId: string | undefined;
  signal: AbortSignal | undefined;
  /** The attempt's earlier turns, as a judge reads the conversation. */
  earlier: readonly { message: string; reply: string }[];
  /** A profile by name, for a judge graded through another profile than the target's. */
  profileFor: ((name: string) => Profile) | undefined;
}

export interface StepOutcome {
  result: StepResult;
  threadId?: string;
  cancelled: boolean;
}

/** A session id the service accepts (1–128 letters or digits) that says where it came from. */
export function newSuiteSessionId(): string {
  return `suite${randomUUID().replaceAll('-', '')}`;
}

interface Sent {
  obs: Observation;
  requestId?: string | undefined;
  frames: readonly { atMs: number; data: string; comment?: boolean }[];
  threadId?: string;
}

function failed(error: unknown, streamed: boolean): Observation {
  if (error instanceof ApiError) {
    return {
      reply: error.partial ?? '',
      streamed,
      chunkTimesMs: [],
      completed: false,
      status: error.status,
      code: error.code,
      errorType: error.type,
      errorMessage: error.message,
    };
  }
  const code = (error as { code?: unknown }).code;
  return {
    reply: '',
    streamed,
    chunkTimesMs: [],
    completed: false,
    status: 0,
    code: typeof code === 'string' ? code : 'INTERNAL',
    errorMessage: error instanceof Error ? error.message : String(error),
  };
}

/** A reply that came whole (not streamed): what the assertions observe of it. */
function whole(reply: ExchangeReply): Sent {
  return {
    obs: {
      reply: reply.response,
      streamed: false,
      chunkTimesMs: [],
      totalMs: reply.totalMs,
      completed: true,
      status: reply.status,
    },
    requestId: reply.requestId,
    frames: [],
  };
}

async function send(ctx: StepContext, step: PlannedStep, index: number): Promise<Sent> {
  const { exchange, profile, agent, planned, signal } = ctx;
  const agentField = agent !== undefined ? { agent } : {};
  if (planned.thread) {
    const reply =
      index === 0
        ? await exchange.createThread(
            profile,
            { message: step.message, ...agentField, ...(planned.title ? { title: planned.title } : {}) },
            { signal },
          )
        : await exchange.sendThread(profile, ctx.threadId as string, step.message, { signal });
    return {
      ...whole(reply),
      ...('threadId' in reply ? { threadId: reply.threadId as string } : {}),
    };
  }
  const input = { message: step.message, session_id: ctx.sessionId as string, ...agentField };
  if (!planned.stream) {
    return whole(await exchange.chat(profile, input, { signal }));
  }
  const stream = await exchange.stream(profile, input, { signal });
  const times: number[] = [];
  let thrown: unknown;
  try {
    for await (const chunk of stream) times.push(chunk.atMs);
  } catch (error) {
    thrown = error;
  }
  const error = stream.error ?? (thrown instanceof ApiError ? thrown : undefined);
  return {
    obs: {
      reply: stream.text,
      streamed: true,
      chunkTimesMs: times,
      ttftMs: stream.timing.firstChunkMs,
      totalMs: stream.timing.totalMs,
      completed: stream.status === 'done',
      // The stream started, so the reply's status was 2xx; a stream_error comes inside it.
      status: 200,
      code: error?.code ?? (thrown !== undefined ? 'INTERNAL' : undefined),
      errorType: error?.type,
      errorMessage: error?.message ?? (thrown instanceof Error ? thrown.message : undefined),
    },
    requestId: stream.requestId,
    frames: stream.frames,
  };
}

function maskFrames(frames: Sent['frames']): RunFrame[] {
  return frames
    .slice(0, MAX_FRAMES_PER_STEP)
    .map((f) => ({ atMs: f.atMs, data: redactSecrets(f.data), ...(f.comment ? { comment: true } : {}) }));
}

/** A check's words as kept: a reply, and so an expected or actual quoting it, may hold a key. */
export function maskCheck(c: CheckResult): CheckResult {
  return {
    ...c,
    expected: redactSecrets(c.expected),
    actual: redactSecrets(c.actual),
    ...(c.verdict ? { verdict: { ...c.verdict, reason: redactSecrets(c.verdict.reason) } } : {}),
  };
}

export async function runStep(ctx: StepContext, step: PlannedStep, index: number): Promise<StepOutcome> {
  const allows429 = step.checks.some((c) => c.kind === 'status' && c.status === 429);
  let rateLimited = 0;
  let sent: Sent;
  for (;;) {
    try {
      sent = await send(ctx, step, index);
      break;
    } catch (error) {
      const refused = error instanceof ApiError && error.status === 429;
      if (refused && !allows429 && rateLimited < MAX_429_RETRIES && !ctx.signal?.aborted) {
        rateLimited++;
        continue;
      }
      sent = {
        obs: failed(error, ctx.planned.stream && !ctx.planned.thread),
        requestId: error instanceof ApiError ? error.requestId : undefined,
        frames: [],
      };
      break;
    }
  }
  const { obs } = sent;
  const cancelled = obs.code === 'ABORTED' || (ctx.signal?.aborted === true && !obs.completed);
  const judged = cancelled ? new Map() : await gradeStep(ctx, step, obs);
  for (const { rateLimited: n } of judged.values()) rateLimited += n;
  const checks = cancelled
    ? []
    : evaluateStep(step.checks, obs, step.line, new Map([...judged].map(([c, g]) => [c, g.outcome])));
  const result: StepResult = {
    index,
    line: step.line,
    message: redactSecrets(step.message),
    state: cancelled ? 'cancelled' : 'done',
    streamed: obs.streamed,
    ...(sent.requestId ? { requestId: sent.requestId } : {}),
    status: obs.status,
    ...(obs.code && !obs.completed
      ? {
          error: {
            code: obs.code,
            message: redactSecrets(obs.errorMessage ?? ''),
            ...(obs.errorType ? { type: obs.errorType } : {}),
          },
        }
      : {}),
    reply: redactSecrets(obs.reply),
    chunks: obs.chunkTimesMs.length,
    ...(obs.ttftMs !== undefined ? { ttftMs: obs.ttftMs } : {}),
    ...(obs.totalMs !== undefined ? { totalMs: obs.totalMs } : {}),
    ...(obs.streamed ? { maxGapMs: maxGapMs(obs.chunkTimesMs) } : {}),
    frames: maskFrames(sent.frames),
    framesDropped: Math.max(0, sent.frames.length - MAX_FRAMES_PER_STEP),
    rateLimited,
    checks: checks.map(maskCheck),
  };
  return { result, cancelled, ...(sent.threadId ? { threadId: sent.threadId } : {}) };
}

/**
 * The step's judged checks, each graded in turn (one grader request at a time per attempt, so a
 * judged case costs the limiter what it says). A reply that did not come whole is not graded.
 */
async function gradeStep(
  ctx: StepContext,
  step: PlannedStep,
  obs: Observation,
): Promise<Map<Check, { outcome: Omit<CheckResult, 'kind' | 'line'>; rateLimited: number }>> {
  const graded = new Map<Check, { outcome: Omit<CheckResult, 'kind' | 'line'>; rateLimited: number }>();
  for (const check of step.checks) {
    if (!isJudged(check)) continue;
    if (!obs.completed) {
      const outcome = { passed: false, expected: check.rubric, actual: 'not graded: no whole reply came' };
      graded.set(check, { outcome, rateLimited: 0 });
      continue;
    }
    graded.set(
      check,
      await grade(
        check,
        { message: step.message, reply: obs.reply, earlier: ctx.earlier },
        gradingContext(ctx),
      ),
    );
  }
  return graded;
}

/** How a step's helper agents (graders, a simulated user) are asked: as its turns are. */
export function gradingContext(ctx: StepContext): GradeContext {
  return {
    exchange: ctx.exchange,
    profile: ctx.profile,
    profileFor: ctx.profileFor,
    signal: ctx.signal,
    newSessionId: newSuiteSessionId,
  };
}

/** A turn that was not sent: an earlier one failed, or the run was cancelled first. */
export function notSentStep(step: PlannedStep, index: number, state: 'skipped' | 'cancelled'): StepResult {
  return {
    index,
    line: step.line,
    message: redactSecrets(step.message),
    state,
    streamed: false,
    status: 0,
    reply: '',
    chunks: 0,
    frames: [],
    framesDropped: 0,
    rateLimited: 0,
    checks: [],
  };
}
