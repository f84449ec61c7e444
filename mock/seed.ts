// The state a new data dir starts with: agents in every status, demo keys for each plan, and
// 90 days of plausible history so the usage charts and browsers look real from the first launch.
import type {
  AgentRecord,
  ConversationRecord,
  KeyRecord,
  MockState,
  ThreadRecord,
  UsageBucket,
} from './state';
import { alphanumeric, newApiKey, newId, newUuid } from './ids';
import { seededRandom } from '../shared/seeded-random';
import { isoDate } from './time';

const DAY_MS = 86_400_000;

/** The demo keys printed at start-up, by name. */
export const DEMO_KEY_NAMES = ['free', 'pro', 'ultra', 'revoked', 'tier30'] as const;
export type DemoKeyName = (typeof DEMO_KEY_NAMES)[number];

type AgentSeed = Pick<AgentRecord, 'name' | 'slug' | 'description' | 'status' | 'model'> & {
  tuning: AgentRecord['tuning'];
};

const tuning = (t: Partial<AgentRecord['tuning']> & Pick<AgentRecord['tuning'], 'behaviour'>) => ({
  latencyMs: 0,
  chunkDelayMs: 0,
  chunkCount: 40,
  failAfterChunks: 4,
  ...t,
});

const SEED_AGENTS: AgentSeed[] = [
  {
    name: 'Echo',
    slug: 'echo',
    description: 'Replies with your message, verbatim. Handy for checking the pipe end to end.',
    status: 'deployed',
    model: { primary: 'mock-echo-1', fallback: null },
    tuning: tuning({ behaviour: 'echo', chunkDelayMs: 5 }),
  },
  {
    name: 'Storyteller',
    slug: 'storyteller',
    description: 'Writes long-form answers that stream in many small chunks.',
    status: 'deployed',
    model: { primary: 'mock-large-2026-05', fallback: 'mock-small-2026-05' },
    tuning: tuning({ behaviour: 'story', latencyMs: 300, chunkDelayMs: 25, chunkCount: 160 }),
  },
  {
    name: 'Helpdesk',
    slug: 'helpdesk',
    description: 'Customer-support assistant that remembers the session it is in.',
    status: 'deployed',
    model: { primary: 'mock-large-2026-05', fallback: 'mock-small-2026-05' },
    tuning: tuning({ behaviour: 'helpdesk', latencyMs: 150, chunkDelayMs: 20 }),
  },
  {
    name: 'Slowpoke',
    slug: 'slowpoke',
    description: 'Thinks for a long time before answering.',
    status: 'deployed',
    model: { primary: 'mock-reasoner-2026-03', fallback: null },
    tuning: tuning({ behaviour: 'slow', latencyMs: 8_000, chunkDelayMs: 40 }),
  },
  {
    name: 'Glitch',
    slug: 'glitch',
    description: 'Fails part-way through every streamed reply (stream_error), and with 502 otherwise.',
    status: 'deployed',
    model: { primary: 'mock-large-2026-05', fallback: null },
    tuning: tuning({ behaviour: 'glitch', latencyMs: 100, chunkDelayMs: 30, failAfterChunks: 4 }),
  },
  {
    name: 'Archivist',
    slug: 'archivist',
    description: 'Indexes old documents. Currently stopped.',
    status: 'stopped',
    model: { primary: 'mock-small-2026-05', fallback: null },
    tuning: tuning({ behaviour: 'helpdesk' }),
  },
  {
    name: 'Ledger Bot',
    slug: 'ledger-bot',
    description: 'Reconciles invoices. Its last deployment failed.',
    status: 'error',
    model: { primary: 'mock-large-2026-05', fallback: 'mock-small-2026-05' },
    tuning: tuning({ behaviour: 'helpdesk' }),
  },
  {
    name: 'Grader',
    slug: 'grader',
    description: 'Grades replies against a rubric for judged tests, by fixed rules (deterministic).',
    status: 'deployed',
    model: { primary: 'mock-judge-2026-05', fallback: null },
    tuning: tuning({ behaviour: 'grader', chunkDelayMs: 5 }),
  },
  {
    name: 'Customer',
    slug: 'customer',
    description: 'Plays a customer in simulated conversations, by fixed rules (deterministic).',
    status: 'deployed',
    model: { primary: 'mock-persona-2026-05', fallback: null },
    tuning: tuning({ behaviour: 'customer', chunkDelayMs: 5 }),
  },
];

const OPENERS = [
  'How do I reset my password?',
  'Can you summarise the release notes?',
  'Where is my invoice for last month?',
  'Write a haiku about latency.',
  'Why did my deployment fail?',
  'What is the refund policy?',
];

function seedAgents(now: number): AgentRecord[] {
  // A deep copy: tuning and model are changed in place later (setAgent), and a second mock in the
  // same process (the e2e tests start one per test) must start from the seed, not from the first's edits.
  return SEED_AGENTS.map((a, i) => ({
    ...structuredClone(a),
    agent_id: newUuid(),
    deployed_at: new Date(now - (i + 1) * 3 * DAY_MS - i * 3_600_000).toISOString(),
  }));
}

function seedKeys(now: number, secrets?: Partial<Record<DemoKeyName, string>>): KeyRecord[] {
  const created = new Date(now - 14 * DAY_MS).toISOString();
  const key = (name: DemoKeyName, account: string, tier: KeyRecord['tier'], revoked = false): KeyRecord => ({
    id: name,
    name,
    secret: secrets?.[name] ?? newApiKey(),
    tier,
    account,
    revoked,
    created_at: created,
  });
  return [
    key('free', 'acct_free', 60),
    key('pro', 'acct_pro', 60),
    key('ultra', 'acct_ultra', 60),
    key('revoked', 'acct_pro', 60, true),
    key('tier30', 'acct_pro', 30),
  ];
}

function seedHistory(agents: AgentRecord[], now: number, rand: () => number) {
  // The test helpers (grader, customer) came later: the seeded history stays the one users already saw.
  const helpers: readonly string[] = ['glitch', 'grader', 'customer'];
  const live = agents.filter((a) => !helpers.includes(a.tuning.behaviour));
  const conversations: ConversationRecord[] = [];
  for (let i = 0; i < 48; i++) {
    const agent = live[i % live.length] as AgentRecord;
    const started = now - Math.floor(rand() * 30 * DAY_MS) - DAY_MS;
    const turns = 1 + Math.floor(rand() * 6);
    const opener = OPENERS[Math.floor(rand() * OPENERS.length)] as string;
    conversations.push({
      id: newId('conv'),
      agent: agent.slug,
      session_id: alphanumeric(24),
      message_count: turns * 2,
      started_at: new Date(started).toISOString(),
      last_message_at: new Date(started + turns * 90_000).toISOString(),
      // The service keeps history the API never returns; seeded ones keep only their opener.
      history: [{ role: 'user', content: opener, at: new Date(started).toISOString() }],
    });
  }
  const threads: ThreadRecord[] = OPENERS.slice(0, 5).map((title, i) => {
    const agent = live[i % live.length] as AgentRecord;
    const created = now - (i + 2) * DAY_MS;
    return {
      id: newId('thr'),
      title,
      agent: agent.slug,
      message_count: 2 + 2 * i,
      created_at: new Date(created).toISOString(),
      updated_at: new Date(created + (i + 1) * 3_600_000).toISOString(),
      history: [{ role: 'user', content: title, at: new Date(created).toISOString() }],
    };
  });
  const usage: UsageBucket[] = [];
  for (let d = 90; d >= 1; d--) {
    const day = now - d * DAY_MS;
    const weekday = new Date(day).getUTCDay();
    const weekFactor = weekday === 0 || weekday === 6 ? 0.45 : 1;
    live.forEach((agent, i) => {
      const requests = Math.round((40 + 160 * rand()) * weekFactor * (1 + i * 0.3));
      const latency = 250 + 500 * rand() + (agent.tuning.behaviour === 'slow' ? 6_000 : 0);
      usage.push({
        date: isoDate(day),
        agent: agent.slug,
        requests,
        tokens: requests * Math.round(180 + 420 * rand()),
        latencyMsTotal: Math.round(latency * requests),
      });
    });
  }
  return { conversations, threads, usage };
}

/** The agents tests drive (`grader`, `customer`): they came after users had states of their own. */
const TEST_HELPERS: readonly string[] = ['grader', 'customer'];

/**
 * A state saved before a test helper was seeded gains it (by slug; an agent of the user's own by
 * that slug stays), so the example suites run on an old data dir as on a new one.
 */
export function withTestHelpers(state: MockState, now: number): MockState {
  const missing = seedAgents(now).filter(
    (a) => TEST_HELPERS.includes(a.slug) && !state.agents.some((b) => b.slug === a.slug),
  );
  return missing.length === 0 ? state : { ...state, agents: [...state.agents, ...missing] };
}

export function createSeedState(now: number, demoSecrets?: Partial<Record<DemoKeyName, string>>): MockState {
  const agents = seedAgents(now);
  return {
    version: 1,
    accounts: { acct_free: 'free', acct_pro: 'pro', acct_ultra: 'ultra' },
    keys: seedKeys(now, demoSecrets),
    agents,
    ...seedHistory(agents, now, seededRandom(20260115)),
    health: { api: 'operational', vps: 'operational', agents: 'operational', gateway: 'operational' },
  };
}
