// mock:… — the embedded mock's control room: the dashboard's actions and the faults no real
// service lets you summon, and the fixtures it replays. Only for the in-process mock of the
// Embedded mock profile.
import { z } from 'zod';
import type { ReceivedHealthReport as HealthReport } from '../received';
import type { KeyInfo } from './keys';
import { id, none, returns, text, type DomainCalls } from './schemas';

const componentState = z.enum(['operational', 'degraded', 'down']);
const rateTier = z.union([z.literal(30), z.literal(60), z.literal(120), z.literal(300)]);
const plan = z.enum(['free', 'pro', 'ultra']);

export const MOCK_CALLS = {
  'mock:state': { input: none, output: returns<MockStateView | null>() },
  'mock:agent': {
    input: z.strictObject({
      slug: id,
      status: z.enum(['deployed', 'stopped', 'error']).optional(),
      latencyMs: z.number().int().min(0).max(600_000).optional(),
      chunkDelayMs: z.number().int().min(0).max(60_000).optional(),
      chunkCount: z.number().int().min(1).max(100_000).optional(),
    }),
    output: returns<MockStateView>(),
  },
  'mock:health': {
    input: z.strictObject({
      api: componentState.optional(),
      vps: componentState.optional(),
      agents: componentState.optional(),
      gateway: componentState.optional(),
    }),
    output: returns<MockStateView>(),
  },
  /** Creates a key at the mock and adds it to Keys (a session key): its secret never reaches the page. */
  'mock:keyCreate': {
    input: z.strictObject({ name: text(100), tier: rateTier, plan: plan.optional() }),
    output: returns<KeyInfo>(),
  },
  'mock:keyUpdate': {
    input: z.strictObject({ id, tier: rateTier.optional(), plan: plan.optional() }),
    output: returns<MockStateView>(),
  },
  'mock:keyRevoke': { input: z.strictObject({ id }), output: returns<MockStateView>() },
  'mock:errorShape': {
    input: z.strictObject({ shape: z.enum(['nested', 'flat', 'flat-429']) }),
    output: returns<MockStateView>(),
  },
  'mock:chaos': {
    input: z.strictObject({ preset: text(50), on: z.boolean() }),
    output: returns<MockStateView>(),
  },
  'mock:reset': { input: none, output: returns<MockStateView>() },
  'mock:requests': { input: none, output: returns<MockRequest[]>() },
  'mock:fixtures': { input: none, output: returns<FixtureInfo[]>() },
  /** Saves a streamed reply (its frames, from `chat:end`) as a fixture in the data folder. */
  'mock:fixtureSave': {
    input: z.strictObject({
      name: text(200),
      agent: text(200),
      frames: z
        .array(z.strictObject({ atMs: z.number(), data: z.string(), comment: z.boolean().optional() }))
        .max(250_000),
    }),
    output: returns<FixtureInfo>(),
  },
  'mock:fixtureAssign': {
    input: z.strictObject({
      slug: id,
      fixtureId: id,
      mode: z.enum(['original', 'scaled', 'fast']),
      scale: z.number().positive().max(100).optional(),
    }),
    output: returns<MockStateView>(),
  },
  'mock:fixtureClear': { input: z.strictObject({ slug: id }), output: returns<MockStateView>() },
  'mock:fixtureImport': {
    input: z.strictObject({ text: z.string().max(64 * 1024 * 1024) }),
    output: returns<FixtureInfo>(),
  },
  'mock:fixtureExport': {
    input: z.strictObject({ id }),
    output: returns<{ fileName: string; text: string }>(),
  },
  'mock:fixtureRemove': { input: z.strictObject({ id }), output: returns<{ removed: boolean }>() },
} as const satisfies DomainCalls<'mock'>;

export interface MockEvents {
  'mock:changed': MockStateView;
}

export interface MockStateView {
  agents: {
    slug: string;
    name: string;
    status: 'deployed' | 'stopped' | 'error';
    latencyMs: number;
    chunkDelayMs: number;
    chunkCount: number;
    replay?: { name: string; mode: string; scale: number; chunks: number };
  }[];
  keys: { id: string; name: string; masked: string; tier: number; plan: string; revoked: boolean }[];
  health: HealthReport;
  errorShape: 'nested' | 'flat' | 'flat-429';
  chaos: { preset: string; name: string; description: string; since: string }[];
  /** Every preset, by slug: its name and what it does. */
  presets: Record<string, { name: string; description: string }>;
  /** What the mock holds, which Reset deletes (its demo data comes back). */
  held: { conversations: number; threads: number };
}

/** One request the mock served, as its request log keeps it. */
export interface MockRequest {
  /** Milliseconds since the epoch, on the mock's clock. */
  at: number;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  requestId: string;
  /** The bearer value masked, never whole. */
  key: string;
}

export interface FixtureInfo {
  id: string;
  name: string;
  agent: string;
  recordedAt: string;
  chunkCount: number;
  durationMs: number;
}
