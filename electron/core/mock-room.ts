// The Mock screen's control room over the in-process mock: its state as the screen shows it, the
// dashboard's actions and faults, fixtures assigned to agents, and keys created at the mock that go
// straight into the vault, so no secret reaches a page. Every change is saved before it is shown
// as done, and told to every window (the header shows active chaos).
import type { KeyInfo } from '../../shared/bridge/keys';
import type { MockStateView } from '../../shared/bridge/mock';
import { CHAOS_PRESET_NAMES, CHAOS_PRESETS, type ChaosPreset } from '../../mock/chaos';
import type { MockServer } from '../../mock/server';
import { CoreError } from './core-error';
import type { FixtureStore } from './fixture-store';
import { addKeyFor } from './key-info';
import type { KeyVault } from './key-vault';
import { EMBEDDED_MOCK_PROFILE_ID } from './profiles';
import type { TranscriptStore } from './transcript-store';

type Control = MockServer['control'];

/** The parts of ConsoleCore the control room uses (structural: no import cycle). */
interface MockRoomHost {
  mock: MockServer | undefined;
  fixtures: FixtureStore;
  vault: KeyVault;
  transcripts: TranscriptStore;
}

export class MockRoom {
  private readonly listeners = new Set<(view: MockStateView) => void>();

  constructor(private readonly host: MockRoomHost) {}

  /** The mock as the screen shows it; null when it runs in another process. */
  state(): MockStateView | null {
    return this.host.mock ? this.view() : null;
  }

  setAgent(slug: string, patch: Parameters<Control['setAgent']>[1]): Promise<MockStateView> {
    return this.change((control) => control.setAgent(slug, patch));
  }

  setHealth(patch: Parameters<Control['setHealth']>[0]): Promise<MockStateView> {
    return this.change((control) => void control.setHealth(patch));
  }

  /** A key made at the mock: the dashboard shows a new secret once; here it goes into the vault. */
  async createKey(input: Parameters<Control['createKey']>[0]): Promise<KeyInfo> {
    const mock = this.mock();
    const { name, tier, plan } = input;
    const created = mock.control.createKey({ name, tier, ...(plan ? { plan } : {}) });
    await mock.control.save();
    // The mock's key, for the mock: no profile takes it elsewhere without the user's word.
    const key = await addKeyFor(this.host.vault, {
      name: `${name} (mock)`,
      secret: created.secret,
      sessionOnly: true,
      baseUrl: mock.baseUrl,
    });
    this.tell(this.view());
    return key;
  }

  updateKey(id: string, { tier, plan }: Parameters<Control['updateKey']>[1]): Promise<MockStateView> {
    return this.change(
      (control) => void control.updateKey(id, { ...(tier ? { tier } : {}), ...(plan ? { plan } : {}) }),
    );
  }

  revokeKey(id: string): Promise<MockStateView> {
    return this.change((control) => void control.revokeKey(id));
  }

  setErrorShape(shape: MockStateView['errorShape']): Promise<MockStateView> {
    return this.change((control) => void control.setFaults({ errorShape: shape }));
  }

  setChaos(preset: string, on: boolean): Promise<MockStateView> {
    return this.change((control) => void (on ? control.applyChaos(preset) : control.undoChaos(preset)));
  }

  /**
   * Back to the mock's seed: its conversations and threads deleted, chaos and faults off. This
   * console's records of the Embedded mock's sessions and threads go with them — they name
   * conversations the mock no longer holds (docs/architecture.md, "The mock").
   */
  async reset(): Promise<MockStateView> {
    const view = await this.change((control) => control.reset());
    const { summaries } = await this.host.transcripts.list(EMBEDDED_MOCK_PROFILE_ID);
    for (const { profileId, kind, id } of summaries)
      await this.host.transcripts.remove({ profileId, kind, id });
    return view;
  }

  requests(): ReturnType<Control['requests']> {
    return this.mock().control.requests();
  }

  /** An agent replays a recorded fixture at its original, a scaled or full speed. */
  async assignFixture(
    slug: string,
    fixtureId: string,
    mode: 'original' | 'scaled' | 'fast',
    scale = 1,
  ): Promise<MockStateView> {
    const fixture = await this.host.fixtures.get(fixtureId);
    return this.change((control) => control.assignFixture(slug, { fixture, mode, scale }));
  }

  clearFixture(slug: string): Promise<MockStateView> {
    return this.change((control) => control.clearFixture(slug));
  }

  /** Every change of the mock, whichever window made it. */
  onChanged(listener: (view: MockStateView) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Runs a change, saves it (shown as done only once it is on disk) and tells every window. */
  private async change(run: (control: Control) => void | Promise<void>): Promise<MockStateView> {
    const { control } = this.mock();
    await run(control);
    await control.save();
    const next = this.view();
    this.tell(next);
    return next;
  }

  private mock(): MockServer {
    if (!this.host.mock) {
      throw new CoreError(
        'MOCK_UNAVAILABLE',
        'The embedded mock runs in another process (npm run mock): control it there with `agent-console mock …`.',
      );
    }
    return this.host.mock;
  }

  private tell(view: MockStateView): void {
    for (const listener of this.listeners) listener(view);
  }

  private view(): MockStateView {
    const state = this.mock().control.state();
    return {
      agents: state.agents.map((a) => ({
        slug: a.slug,
        name: a.name,
        status: a.status,
        latencyMs: a.latencyMs,
        chunkDelayMs: a.chunkDelayMs,
        chunkCount: a.chunkCount,
        ...(a.replay ? { replay: a.replay } : {}),
      })),
      keys: state.keys.map(({ id, name, masked, tier, plan, revoked }) => ({
        id,
        name,
        masked,
        tier,
        plan,
        revoked,
      })),
      health: state.health,
      errorShape: state.faults.errorShape,
      chaos: state.chaos,
      presets: Object.fromEntries(
        Object.entries(CHAOS_PRESETS).map(([preset, description]) => [
          preset,
          { name: CHAOS_PRESET_NAMES[preset as ChaosPreset], description },
        ]),
      ),
      held: state.held,
    };
  }
}
