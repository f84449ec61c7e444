// The mock's durable state and its file: conversations, threads, usage, keys, accounts and agents
// survive a restart on the same data dir (atomic writes, so a crash never leaves half a file).
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { Agent, RateTierSchema } from '../shared/api';
import { describeWriteError } from '../shared/write-error';
import { Replay } from './replay';

export const Plan = z.enum(['free', 'pro', 'ultra']);
export type Plan = z.infer<typeof Plan>;

const Behaviour = z.enum(['echo', 'story', 'slow', 'glitch', 'helpdesk', 'grader', 'customer']);

export const KeyRecord = z.object({
  id: z.string(),
  name: z.string(),
  secret: z.string(),
  tier: RateTierSchema,
  account: z.string(),
  revoked: z.boolean(),
  created_at: z.string(),
});
export type KeyRecord = z.infer<typeof KeyRecord>;

export const AgentTuning = z.object({
  behaviour: Behaviour,
  /** Time before the reply (or the first chunk) is produced. */
  latencyMs: z.number().int().nonnegative(),
  /** Pause between stream chunks. */
  chunkDelayMs: z.number().int().nonnegative(),
  /** Words in a `story` reply. */
  chunkCount: z.number().int().positive(),
  /** For `glitch`: chunks sent before the stream_error. */
  failAfterChunks: z.number().int().nonnegative(),
  /** For `story`: words per stream chunk (default 1), so a bench can stream big chunks at full speed. */
  wordsPerChunk: z.number().int().positive().max(1000).optional(),
});
export type AgentTuning = z.infer<typeof AgentTuning>;

/** `replay`: a recorded reply the agent plays back instead of composing one. */
export const AgentRecord = Agent.extend({ tuning: AgentTuning, replay: Replay.optional() });
export type AgentRecord = z.infer<typeof AgentRecord>;

export const Message = z.object({ role: z.enum(['user', 'agent']), content: z.string(), at: z.string() });
export type Message = z.infer<typeof Message>;

export const ConversationRecord = z.object({
  id: z.string(),
  agent: z.string(),
  session_id: z.string(),
  message_count: z.number().int(),
  started_at: z.string(),
  last_message_at: z.string(),
  history: z.array(Message),
});
export type ConversationRecord = z.infer<typeof ConversationRecord>;

export const ThreadRecord = z.object({
  id: z.string(),
  title: z.string(),
  agent: z.string(),
  message_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  history: z.array(Message),
});
export type ThreadRecord = z.infer<typeof ThreadRecord>;

/** Usage of one agent on one UTC calendar day. */
export const UsageBucket = z.object({
  date: z.string(),
  agent: z.string(),
  requests: z.number().int(),
  tokens: z.number().int(),
  latencyMsTotal: z.number(),
});
export type UsageBucket = z.infer<typeof UsageBucket>;

export const ComponentState = z.enum(['operational', 'degraded', 'down']);
export type ComponentState = z.infer<typeof ComponentState>;

export const MockState = z.object({
  version: z.literal(1),
  accounts: z.record(z.string(), Plan),
  keys: z.array(KeyRecord),
  agents: z.array(AgentRecord),
  conversations: z.array(ConversationRecord),
  threads: z.array(ThreadRecord),
  usage: z.array(UsageBucket),
  health: z.object({
    api: ComponentState,
    vps: ComponentState,
    agents: ComponentState,
    gateway: ComponentState,
  }),
});
export type MockState = z.infer<typeof MockState>;

const STATE_FILE = 'mock-state.json';

/** Reads the state file; undefined when there is none yet (or when a corrupt one was set aside). */
export function loadState(
  dataDir: string,
  onWarning: (message: string) => void = warnOnStderr,
): MockState | undefined {
  const path = join(dataDir, STATE_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let problem: string;
  try {
    const parsed = MockState.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
    problem = `it is not valid: ${parsed.error.issues[0]?.message ?? 'unknown'}`;
  } catch (error) {
    problem = text.trim() === '' ? 'it is empty' : `it is not valid JSON: ${(error as Error).message}`;
  }
  // Like settings.json: never silently wiped, never a reason to stop the whole console.
  const backup = backupName(path);
  renameSync(path, backup);
  onWarning(
    `The mock state file ${path} could not be read (${problem}), so the mock started afresh from its ` +
      `seed. The old file was kept as ${backup}.`,
  );
  return undefined;
}

function backupName(path: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  let candidate = `${path}.corrupt-${stamp}`;
  for (let n = 1; existsSync(candidate); n++) candidate = `${path}.corrupt-${stamp}-${n}`;
  return candidate;
}

function warnOnStderr(message: string): void {
  console.error(message);
}

/**
 * The least pause after a write, as a multiple of what the write took (serialising and writing the
 * file): a state grown large (long replies pile up in conversations) is then saved less often, so
 * saving never takes more than about a tenth of the mock's time, and streams are not stalled by it.
 */
const PAUSE_PER_WRITE_COST = 10;

/** How long a failed write waits before it is tried again, at first and at most. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 10_000;

/**
 * Coalesces saves: many changes in one burst give one write, and a write that took long is
 * followed by a proportionally longer pause (PAUSE_PER_WRITE_COST); `flush` writes at once. A write
 * that fails (a full disk, a read-only or vanished folder: ENOSPC, EROFS, EACCES) never crashes the
 * process: the state stays in memory, the owner is told once per run of failures, and the write is
 * tried again until it lands.
 */
export class StateWriter {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private retryMs = RETRY_FIRST_MS;
  private failing = false;
  /** No write starts before this (`now()` time), unless flushed. */
  private notBefore = 0;

  constructor(
    private readonly dataDir: string,
    private readonly snapshot: () => MockState,
    private readonly delayMs = 50,
    private readonly onWriteError: (message: string) => void = warnOnStderr,
    private readonly now: () => number = () => performance.now(),
  ) {}

  schedule(delayMs = this.delayMs): void {
    if (this.timer) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.write().catch(() => undefined);
      },
      Math.max(delayMs, this.notBefore - this.now()),
    );
  }

  /** Writes what is pending now; rejects when the write fails (and keeps retrying in the background). */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      await this.write();
    }
    await this.writing;
  }

  private write(): Promise<void> {
    const started = this.now();
    const text = JSON.stringify(this.snapshot());
    const serialised = this.now();
    const file = join(this.dataDir, STATE_FILE);
    let writeStarted = 0;
    const run = this.writing.then(() => {
      writeStarted = this.now();
      return writeFileAtomic(file, text, { mode: 0o600 });
    });
    this.writing = run.then(
      () => {
        const cost = serialised - started + (this.now() - writeStarted);
        this.notBefore = this.now() + PAUSE_PER_WRITE_COST * cost;
        if (this.failing) this.onWriteError(`The mock state file ${file} is written again.`);
        this.failing = false;
        this.retryMs = RETRY_FIRST_MS;
      },
      (error: unknown) => {
        if (!this.failing) {
          this.onWriteError(
            `The mock state could not be written to ${file} (${describeWriteError(error)}). ` +
              'It is kept in memory and written again as soon as the folder is writable.',
          );
        }
        this.failing = true;
        this.schedule(this.retryMs);
        this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
      },
    );
    return run;
  }
}
