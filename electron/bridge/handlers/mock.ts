// The Mock screen's calls (issue 9): the in-process mock's control, the fixtures in the data folder,
// and keys created at the mock going straight into the vault, so no secret reaches the page.
import type { MockStateView } from '../../../shared/bridge';
import { CHAOS_PRESETS } from '../../../mock/chaos';
import type { MockServer } from '../../../mock/server';
import { CoreError } from '../../core/core-error';
import { normaliseBaseUrl, originOf } from '../../core/profiles';
import type { DomainHandlers, HandlerContext } from './context';
import { keyInfo } from '../../core/key-info';

export function mockHandlers({ core, emit }: HandlerContext): DomainHandlers<'mock'> {
  const fixtures = core.fixtures;
  const mock = (): MockServer => {
    if (!core.mock) {
      throw new CoreError(
        'MOCK_UNAVAILABLE',
        'The embedded mock runs in another process (npm run mock): control it there with `agent-console mock …`.',
      );
    }
    return core.mock;
  };
  const view = (): MockStateView => {
    const m = mock();
    const state = m.control.state();
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
      presets: { ...CHAOS_PRESETS },
    };
  };
  /**
   * Runs a change, saves it (the screen shows it as done only once it is on disk) and tells every
   * window (the header shows active chaos).
   */
  const change = async (run: () => void | Promise<void>): Promise<MockStateView> => {
    await run();
    await mock().control.save();
    const next = view();
    emit('mock:changed', next);
    return next;
  };

  return {
    'mock:state': async () => (core.mock ? view() : null),
    'mock:agent': async ({ slug, ...patch }) => change(() => mock().control.setAgent(slug, patch)),
    'mock:health': async (patch) => change(() => void mock().control.setHealth(patch)),
    'mock:keyCreate': async ({ name, tier, plan }) => {
      const created = mock().control.createKey({ name, tier, ...(plan ? { plan } : {}) });
      await mock().control.save();
      // The dashboard shows a new secret once; here it goes straight into the vault instead.
      const meta = await core.vault.add({
        name: `${name} (mock)`,
        secret: created.secret,
        sessionOnly: true,
        // The mock's key, for the mock: no profile takes it elsewhere without the user's word.
        origins: [originOf(normaliseBaseUrl(mock().baseUrl))],
      });
      emit('mock:changed', view());
      return keyInfo(meta);
    },
    'mock:keyUpdate': async ({ id, tier, plan }) =>
      change(
        () => void mock().control.updateKey(id, { ...(tier ? { tier } : {}), ...(plan ? { plan } : {}) }),
      ),
    'mock:keyRevoke': async ({ id }) => change(() => void mock().control.revokeKey(id)),
    'mock:errorShape': async ({ shape }) =>
      change(() => void mock().control.setFaults({ errorShape: shape })),
    'mock:chaos': async ({ preset, on }) =>
      change(() => void (on ? mock().control.applyChaos(preset) : mock().control.undoChaos(preset))),
    'mock:reset': async () => change(() => mock().control.reset()),
    'mock:requests': async () => mock().control.requests(),
    'mock:fixtures': async () => fixtures.list(),
    'mock:fixtureSave': async (input) => fixtures.saveFromFrames(input),
    'mock:fixtureAssign': async ({ slug, fixtureId, mode, scale }) => {
      const fixture = await fixtures.get(fixtureId);
      return change(() => mock().control.assignFixture(slug, { fixture, mode, scale: scale ?? 1 }));
    },
    'mock:fixtureClear': async ({ slug }) => change(() => mock().control.clearFixture(slug)),
    'mock:fixtureImport': async ({ text }) => fixtures.importText(text),
    'mock:fixtureExport': async ({ id }) => fixtures.exportText(id),
    'mock:fixtureRemove': async ({ id }) => ({ removed: await fixtures.remove(id) }),
  };
}
