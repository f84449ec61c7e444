// The mock's control surface: what the service's web dashboard does (keys, tiers, plans,
// revocation) plus state and faults no real service lets you summon. The same operations are
// offered in-process (tests, the app) and over HTTP under /__control (scripts, curl); never
// under /api/v1.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AgentStatus, RateTierSchema, type HealthReport } from '../shared/api';
import type { MockRequest } from '../shared/bridge/mock';
import { CHAOS_PRESETS, isChaosPreset, type ChaosPreset, type ChaosView } from './chaos';
import { ApiFailure } from './errors';
import { Replay } from './replay';
import { maskKey, newApiKey, newId } from './ids';
import { defaultFaults, type Faults, type MockService } from './service';
import { AgentTuning, ComponentState, Plan, type KeyRecord } from './state';
import { parseBody } from './validate';

export const CONTROL_PREFIX = '/__control';

export const AgentPatch = z.strictObject({
  status: AgentStatus.optional(),
  ...AgentTuning.omit({ behaviour: true }).partial().shape,
});
export const HealthPatch = z.strictObject({
  api: ComponentState.optional(),
  vps: ComponentState.optional(),
  agents: ComponentState.optional(),
  gateway: ComponentState.optional(),
});
export const NewKey = z.strictObject({
  name: z.string().min(1).max(100),
  tier: RateTierSchema.optional(),
  plan: Plan.optional(),
});
export const KeyPatch = z.strictObject({ tier: RateTierSchema.optional(), plan: Plan.optional() });
export const FaultsPatch = z.strictObject({
  latencyMs: z.number().int().min(0).max(600_000).optional(),
  failNext: z
    .strictObject({
      status: z.number().int().min(400).max(599),
      count: z.number().int().min(1).max(10_000),
      pathPrefix: z.string().optional(),
    })
    .nullable()
    .optional(),
  breakStreams: z
    .strictObject({
      afterChunks: z.number().int().min(0),
      mode: z.enum(['drop', 'stream_error']),
      count: z.number().int().min(1).max(10_000),
    })
    .nullable()
    .optional(),
  malformedNext: z
    .strictObject({
      kind: z.enum(['bad-json', 'wrong-content-type']),
      count: z.number().int().min(1).max(10_000),
      pathPrefix: z.string().optional(),
    })
    .nullable()
    .optional(),
  errorShape: z.enum(['nested', 'flat', 'flat-429']).optional(),
});

export interface KeyView {
  id: string;
  name: string;
  masked: string;
  tier: number;
  plan: string;
  revoked: boolean;
  created_at: string;
}

const REQUEST_LOG_SIZE = 500;

export class MockControl {
  /** A ring: `next` is where the following entry goes; memory stays flat however long the mock runs. */
  private readonly log: MockRequest[] = [];
  private next = 0;

  constructor(private readonly service: MockService) {}

  /** Writes pending changes now (see MockService.save): before a change is acknowledged. */
  save(): Promise<void> {
    return this.service.save();
  }

  state() {
    const s = this.service.state;
    return {
      agents: s.agents.map((a) => ({
        slug: a.slug,
        name: a.name,
        status: a.status,
        ...a.tuning,
        ...(a.replay
          ? {
              replay: {
                name: a.replay.fixture.name,
                mode: a.replay.mode,
                scale: a.replay.scale,
                chunks: a.replay.fixture.chunks.length,
              },
            }
          : {}),
      })),
      keys: s.keys.map((k) => this.keyView(k)),
      health: this.service.healthReport(),
      faults: this.service.faults,
      chaos: this.service.chaos.list(),
      held: { conversations: s.conversations.length, threads: s.threads.length },
    };
  }

  /** Turns a chaos preset on (in memory only: a reset or restart turns it off). */
  applyChaos(preset: string): ChaosView[] {
    this.service.chaos.apply(chaosPreset(preset), this.service.clock.now());
    return this.service.chaos.list();
  }

  undoChaos(preset: string): ChaosView[] {
    this.service.chaos.undo(chaosPreset(preset));
    return this.service.chaos.list();
  }

  clearChaos(): void {
    this.service.chaos.clear();
  }

  reset(): void {
    this.service.reset();
    this.log.length = 0;
    this.next = 0;
  }

  /** Uptime starts again, as after a service restart. */
  restart(): void {
    this.service.restart();
  }

  /** A deploy of another version: GET /health reports it from now on (uptime carries on). */
  setVersion(version: string): void {
    this.service.version = z.string().min(1).max(100).parse(version);
  }

  setAgent(ref: string, patch: z.infer<typeof AgentPatch>): void {
    const agent = this.service.findAgent(ref);
    if (!agent) throw new ApiFailure(404, 'NOT_FOUND', `No agent '${ref}'.`);
    const { status, ...tuning } = AgentPatch.parse(patch);
    if (status && status !== agent.status) {
      agent.status = status;
      if (status === 'deployed') agent.deployed_at = new Date(this.service.clock.now()).toISOString();
    }
    Object.assign(agent.tuning, tuning);
    this.service.changed();
  }

  /** The agent replays a recorded reply from now on (until cleared or reset). */
  assignFixture(ref: string, replay: z.input<typeof Replay>): void {
    const agent = this.service.findAgent(ref);
    if (!agent) throw new ApiFailure(404, 'NOT_FOUND', `No agent '${ref}'.`);
    agent.replay = Replay.parse(replay);
    this.service.changed();
  }

  clearFixture(ref: string): void {
    const agent = this.service.findAgent(ref);
    if (!agent) throw new ApiFailure(404, 'NOT_FOUND', `No agent '${ref}'.`);
    delete agent.replay;
    this.service.changed();
  }

  setHealth(patch: z.infer<typeof HealthPatch>): HealthReport {
    Object.assign(this.service.state.health, HealthPatch.parse(patch));
    this.service.changed();
    return this.service.healthReport();
  }

  /** Creates a key as the dashboard would; the secret is returned once, here. */
  createKey(input: z.infer<typeof NewKey>): KeyView & { secret: string } {
    const { name, tier, plan } = NewKey.parse(input);
    const account = plan ? newId('acct') : 'acct_pro';
    if (plan) this.service.state.accounts[account] = plan;
    const key: KeyRecord = {
      id: newId('key'),
      name,
      secret: newApiKey(),
      tier: tier ?? 60,
      account,
      revoked: false,
      created_at: new Date(this.service.clock.now()).toISOString(),
    };
    this.service.state.keys.push(key);
    this.service.changed();
    return { ...this.keyView(key), secret: key.secret };
  }

  /** Changes a key's tier (immediately, spec §2) and/or its account's plan. */
  updateKey(ref: string, patch: z.infer<typeof KeyPatch>): KeyView {
    const key = this.findKey(ref);
    const { tier, plan } = KeyPatch.parse(patch);
    if (tier) key.tier = tier;
    if (plan) this.service.state.accounts[key.account] = plan;
    this.service.changed();
    return this.keyView(key);
  }

  /** Revocation is immediate and permanent (spec §3). */
  revokeKey(ref: string): KeyView {
    const key = this.findKey(ref);
    key.revoked = true;
    this.service.changed();
    return this.keyView(key);
  }

  /** Deletes a thread, as another client or an operator might: later calls to it answer 404. */
  deleteThread(id: string): void {
    const index = this.service.state.threads.findIndex((t) => t.id === id);
    if (index < 0) throw new ApiFailure(404, 'NOT_FOUND', `No thread '${id}'.`);
    this.service.state.threads.splice(index, 1);
    this.service.changed();
  }

  setFaults(patch: z.infer<typeof FaultsPatch>): Faults {
    const p = FaultsPatch.parse(patch);
    const f = this.service.faults;
    if (p.latencyMs !== undefined) f.latencyMs = p.latencyMs;
    if (p.failNext !== undefined) f.failNext = p.failNext ?? undefined;
    if (p.breakStreams !== undefined) f.breakStreams = p.breakStreams ?? undefined;
    if (p.malformedNext !== undefined) f.malformedNext = p.malformedNext ?? undefined;
    if (p.errorShape !== undefined) f.errorShape = p.errorShape;
    return f;
  }

  clearFaults(): void {
    this.service.faults = { ...defaultFaults(), enforceRateLimits: this.service.faults.enforceRateLimits };
  }

  /** The mock's request log, oldest first. */
  requests(): MockRequest[] {
    return [...this.log.slice(this.next), ...this.log.slice(0, this.next)];
  }

  recordRequest(entry: MockRequest): void {
    this.log[this.next] = entry;
    this.next = (this.next + 1) % REQUEST_LOG_SIZE;
  }

  private findKey(ref: string): KeyRecord {
    const key = this.service.state.keys.find((k) => k.id === ref || k.name === ref);
    if (!key) throw new ApiFailure(404, 'NOT_FOUND', `No key '${ref}'.`);
    return key;
  }

  private keyView(k: KeyRecord): KeyView {
    return {
      id: k.id,
      name: k.name,
      masked: maskKey(k.secret),
      tier: k.tier,
      plan: this.service.state.accounts[k.account] ?? 'free',
      revoked: k.revoked,
      created_at: k.created_at,
    };
  }
}

function chaosPreset(name: string): ChaosPreset {
  if (!isChaosPreset(name)) {
    throw new ApiFailure(
      404,
      'NOT_FOUND',
      `No chaos preset '${name}'. Presets: ${Object.keys(CHAOS_PRESETS).join(', ')}.`,
    );
  }
  return name;
}

export function registerControlRoutes(app: FastifyInstance, control: MockControl): void {
  const p = CONTROL_PREFIX;
  type Named = { Params: { ref: string; preset: string } };
  /**
   * A route that changes the mock: what it answers as done is on disk first, so a kill -9 right
   * after loses none of it. A save that fails is the route's error, so the request log and the
   * caller see it.
   */
  const change = (
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    apply: (request: FastifyRequest<Named>) => unknown,
    options: { bodyLimit?: number } = {},
  ) =>
    app.route<Named>({
      method,
      url: `${p}${path}`,
      ...options,
      handler: async (request) => {
        const answer = apply(request);
        await control.save();
        return answer;
      },
    });
  const agentView = (slug: string) => control.state().agents.find((a) => a.slug === slug) ?? { ok: true };

  app.get(`${p}/state`, async () => control.state());
  app.get(`${p}/requests`, async () => ({ requests: control.requests() }));
  change('POST', '/reset', () => (control.reset(), { ok: true }));
  change('POST', '/restart', () => (control.restart(), { ok: true }));
  change('POST', '/version', (req) => {
    control.setVersion(parseBody(z.strictObject({ version: z.string() }), req.body).version);
    return { ok: true };
  });
  change('PATCH', '/agents/:ref', (req) => {
    control.setAgent(req.params.ref, parseBody(AgentPatch, req.body));
    return agentView(req.params.ref);
  });
  // A recorded reply can be far larger than any API request (20,000 chunks of a 1 MB reply).
  change(
    'PUT',
    '/agents/:ref/fixture',
    (req) => {
      control.assignFixture(req.params.ref, parseBody(Replay, req.body));
      return agentView(req.params.ref);
    },
    { bodyLimit: 64 * 1024 * 1024 },
  );
  change('DELETE', '/agents/:ref/fixture', (req) => (control.clearFixture(req.params.ref), { ok: true }));
  change('PATCH', '/health', (req) => control.setHealth(parseBody(HealthPatch, req.body)));
  change('POST', '/keys', (req) => control.createKey(parseBody(NewKey, req.body)));
  change('PATCH', '/keys/:ref', (req) => control.updateKey(req.params.ref, parseBody(KeyPatch, req.body)));
  change('POST', '/keys/:ref/revoke', (req) => control.revokeKey(req.params.ref));
  change('DELETE', '/threads/:ref', (req) => (control.deleteThread(req.params.ref), { ok: true }));
  change('PATCH', '/faults', (req) => control.setFaults(parseBody(FaultsPatch, req.body)));
  change('DELETE', '/faults', () => (control.clearFaults(), { ok: true }));
  app.get(`${p}/chaos`, async () => ({ presets: CHAOS_PRESETS, active: control.state().chaos }));
  change('POST', '/chaos/:preset', (req) => ({ active: control.applyChaos(req.params.preset) }));
  change('DELETE', '/chaos/:preset', (req) => ({ active: control.undoChaos(req.params.preset) }));
  change('DELETE', '/chaos', () => (control.clearChaos(), { active: [] }));
}
