// Chaos presets: one click each, undoable, and never persisted — an overlay the mock
// consults at request time, so a reset or a restart leaves nothing behind by accident.
import { ApiFailure } from './errors';
import type { ComponentState } from './state';

export const CHAOS_PRESETS = {
  'rate-limit-storm': 'Every key is limited to 30 requests/minute, and a second client uses a third of that.',
  'flaky-agent': 'Every second chat or thread message fails with 502 AGENT_ERROR.',
  'slow-service': 'Agents answer 5 seconds before the 60-second chat timeout.',
  'broken-streams': 'Streams stop after 3 chunks without [DONE].',
  degraded: 'The agents component is degraded (health: degraded).',
  outage: 'API and gateway are down: health is unhealthy and chats answer 503.',
  'plan-expired': 'No account has an active plan: every endpoint answers 403 PLAN_REQUIRED.',
} as const;
export type ChaosPreset = keyof typeof CHAOS_PRESETS;
/** What a person calls each preset; the slug stays the name in URLs, the CLI and the mock's API. */
export const CHAOS_PRESET_NAMES: Record<ChaosPreset, string> = {
  'rate-limit-storm': 'Rate-limit storm',
  'flaky-agent': 'Flaky agent',
  'slow-service': 'Slow service',
  'broken-streams': 'Broken streams',
  degraded: 'Degraded',
  outage: 'Outage',
  'plan-expired': 'Plan expired',
};
export const isChaosPreset = (name: string): name is ChaosPreset => Object.hasOwn(CHAOS_PRESETS, name);

const STORM_TIER = 30;
/** The storm's second client: one request every 6 s (10 a minute, a third of the storm tier). */
const STORM_INTERVAL_MS = 6_000;
const SLOW_MARGIN_MS = 5_000;
const BROKEN_AFTER_CHUNKS = 3;

type Components = Record<'api' | 'vps' | 'agents' | 'gateway', ComponentState>;

export interface ChaosView {
  preset: ChaosPreset;
  name: string;
  description: string;
  since: string;
}

export class Chaos {
  private readonly active = new Map<ChaosPreset, number>();
  private flakyCalls = 0;
  /** Per key: when the storm's second client sends its next request. */
  private readonly stormNext = new Map<string, number>();

  apply(preset: ChaosPreset, now: number): void {
    if (!this.active.has(preset)) this.active.set(preset, now);
    if (preset === 'rate-limit-storm') this.stormNext.clear();
    if (preset === 'flaky-agent') this.flakyCalls = 0;
  }

  undo(preset: ChaosPreset): void {
    this.active.delete(preset);
  }

  clear(): void {
    this.active.clear();
  }

  has(preset: ChaosPreset): boolean {
    return this.active.has(preset);
  }

  list(): ChaosView[] {
    return [...this.active].map(([preset, since]) => ({
      preset,
      name: CHAOS_PRESET_NAMES[preset],
      description: CHAOS_PRESETS[preset],
      since: new Date(since).toISOString(),
    }));
  }

  tier(tier: number): number {
    return this.has('rate-limit-storm') ? STORM_TIER : tier;
  }

  plan<P extends string>(plan: P): P | 'free' {
    return this.has('plan-expired') ? 'free' : plan;
  }

  /**
   * The storm's second client, caught up to `now`: its requests land in the key's window at the
   * times it would have sent them (refused ones are not counted, as for any client).
   */
  stormLoad(keyId: string, now: number, record: (at: number) => void): void {
    if (!this.has('rate-limit-storm')) return;
    let next = this.stormNext.get(keyId) ?? (this.active.get('rate-limit-storm') as number);
    for (; next <= now; next += STORM_INTERVAL_MS) record(next);
    this.stormNext.set(keyId, next);
  }

  health(components: Components): Components {
    if (this.has('outage')) return { ...components, api: 'down', gateway: 'down' };
    if (this.has('degraded')) return { ...components, agents: 'degraded' };
    return components;
  }

  latency(agentLatencyMs: number, timeoutMs: number): number {
    return this.has('slow-service') ? Math.max(agentLatencyMs, timeoutMs - SLOW_MARGIN_MS) : agentLatencyMs;
  }

  /** Why a call that reaches an agent fails under chaos, if it does. */
  agentFailure(agentSlug: string): ApiFailure | undefined {
    if (this.has('outage')) {
      return new ApiFailure(503, 'SERVICE_UNAVAILABLE', 'The service is down (chaos: outage).');
    }
    if (this.has('flaky-agent') && this.flakyCalls++ % 2 === 1) {
      return new ApiFailure(
        502,
        'AGENT_ERROR',
        `Agent '${agentSlug}' had an internal error (chaos: flaky agent).`,
      );
    }
    return undefined;
  }

  streamBreak(): { afterChunks: number; mode: 'drop' } | undefined {
    return this.has('broken-streams') ? { afterChunks: BROKEN_AFTER_CHUNKS, mode: 'drop' } : undefined;
  }
}
