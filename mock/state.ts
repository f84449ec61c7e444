// The mock's durable state and its file: conversations, threads, usage, keys, accounts and agents
// survive a restart on the same data dir (atomic writes, so a crash never leaves half a file).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { Agent, RateTierSchema } from '../shared/api';
import { Replay } from './replay';

export const Plan = z.enum(['free', 'pro', 'ultra']);
export type Plan = z.infer<typeof Plan>;

export const Behaviour = z.enum(['echo', 'story', 'slow', 'glitch', 'helpdesk']);
export type Behaviour = z.infer<typeof Behaviour>;

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

/** `replay`: a recorded reply the agent plays back instead of composing one (issue 9). */
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

/** Reads the state file; undefined when there is none yet. A corrupt file is an error, never silently replaced. */
export function loadState(dataDir: string): MockState | undefined {
  const path = join(dataDir, STATE_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`Mock state file ${path} is not valid JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const parsed = MockState.safeParse(json);
  if (!parsed.success) {
    throw new Error(`Mock state file ${path} is not valid: ${parsed.error.issues[0]?.message ?? 'unknown'}`);
  }
  return parsed.data;
}

/** Coalesces saves: many changes in one burst give one write. */
export class StateWriter {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly dataDir: string,
    private readonly snapshot: () => MockState,
    private readonly delayMs = 50,
  ) {}

  schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.write();
    }, this.delayMs);
  }

  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      await this.write();
    }
    await this.writing;
  }

  private write(): Promise<void> {
    const text = JSON.stringify(this.snapshot());
    this.writing = this.writing.then(() =>
      writeFileAtomic(join(this.dataDir, STATE_FILE), text, { mode: 0o600 }),
    );
    return this.writing;
  }
}
