// The core's client against an independent server (test/support/odd-server.ts, not our mock) that
// answers legally but differently: every value it adds is kept and shown
// as it came, every stream completes, and a 429 is waited out as Retry-After says.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApiClient } from '../../electron/core/api-client';
import { RateLimiter } from '../../electron/core/rate-limiter';
import { knownAgentStatus, knownConversationStatus, lacksTimeZone } from '../../shared/known-values';
import { systemClock } from '../../shared/clock';
import type { RequestLogEntry } from '../../shared/request-log-entry';
import {
  ODD_AGENTS,
  ODD_CONVERSATIONS,
  ODD_KEY,
  ODD_PIECES,
  startOddServer,
  type OddServer,
} from '../support/odd-server';

let odd: OddServer;
let client: ApiClient;
const log: RequestLogEntry[] = [];

beforeAll(async () => {
  odd = await startOddServer();
  client = new ApiClient({
    profileId: 'odd',
    baseUrl: odd.baseUrl,
    keyId: 'key_odd',
    secret: async () => ODD_KEY,
    limiter: new RateLimiter({ clock: systemClock, limit: 60, random: () => 0.5 }),
    clock: systemClock,
    log: (entry) => log.push(entry),
  });
});
afterAll(async () => {
  await client.close();
  await odd.close();
});

describe('a newer service, read tolerantly', () => {
  test('a new agent status, no model.fallback, a zoneless timestamp and unknown fields come through as sent', async () => {
    const page = await client.listAgents();
    // Every field, known or not, as the service sent it: what `--json` prints.
    expect(page).toEqual(ODD_AGENTS);
    const agent = page.agents[0];
    expect(agent?.status).toBe('deploying');
    expect(knownAgentStatus(agent?.status ?? '')).toBeUndefined();
    expect(agent?.model?.fallback).toBeUndefined();
    expect(lacksTimeZone(agent?.deployed_at ?? '')).toBe(true);
  });

  test('a new conversation status and extra fields are kept', async () => {
    const page = await client.listConversations();
    expect(page).toEqual(ODD_CONVERSATIONS);
    expect(knownConversationStatus(page.conversations[0]?.status ?? '')).toBe(false);
  });

  test('a Text/Event-Stream reply with a {"type":"usage"} event streams to the end', async () => {
    const stream = await client.chatStream({ message: 'hello', agent: 'builder' });
    const chunks: string[] = [];
    for await (const chunk of stream) chunks.push(chunk.content);
    expect(chunks).toEqual(ODD_PIECES);
    expect(stream.status).toBe('done');
    // The non-content event stays in the frames the inspector shows.
    expect(stream.frames.some((f) => JSON.parse(f.data === '[DONE]' ? '{}' : f.data).type === 'usage')).toBe(
      true,
    );
  });
});

describe('rate-limit edge cases', () => {
  test('a stream whose lines end in bare CR, the last byte a CR, completes', async () => {
    const stream = await client.chatStream({ message: 'bare-cr please', agent: 'builder' });
    expect(await stream.collect()).toBe(ODD_PIECES.join(''));
    expect(stream.status).toBe('done');
  });

  test('a 429 with Retry-After 3 and X-RateLimit-Reset 60 s away is retried after about 3 s, not 60', async () => {
    odd.refuseNext('/api/v1/agents');
    const before = odd.arrivals('/api/v1/agents').length;
    const page = await client.listAgents();
    expect(page.agents[0]?.slug).toBe('builder');
    const [refused, retried] = odd.arrivals('/api/v1/agents').slice(before);
    const waited = (retried as number) - (refused as number);
    // Retry-After 3 s plus the 0.5 s jitter this limiter draws.
    expect(waited).toBeGreaterThanOrEqual(3_400);
    expect(waited).toBeLessThan(6_000);
    expect(log.some((e) => e.status === 429 && e.rate.reset !== undefined && e.rate.retryAfterS === 3)).toBe(
      true,
    );
  }, 15_000);
});
