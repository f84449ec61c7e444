// mock:… — the Mock screen: the in-process mock's control room (electron/core/mock-room.ts) and
// the fixtures in the data folder (electron/core/fixture-store.ts).
import type { DomainHandlers, HandlerContext } from './context';

export function mockHandlers({ core, emit, onClose }: HandlerContext): DomainHandlers<'mock'> {
  const { mockRoom: room, fixtures } = core;
  onClose(room.onChanged((view) => emit('mock:changed', view)));
  return {
    'mock:state': async () => room.state(),
    'mock:agent': async ({ slug, ...patch }) => room.setAgent(slug, patch),
    'mock:health': async (patch) => room.setHealth(patch),
    'mock:keyCreate': async (key) => room.createKey(key),
    'mock:keyUpdate': async ({ id, ...patch }) => room.updateKey(id, patch),
    'mock:keyRevoke': async ({ id }) => room.revokeKey(id),
    'mock:errorShape': async ({ shape }) => room.setErrorShape(shape),
    'mock:chaos': async ({ preset, on }) => room.setChaos(preset, on),
    'mock:reset': async () => room.reset(),
    'mock:requests': async () => room.requests(),
    'mock:fixtures': async () => fixtures.list(),
    'mock:fixtureSave': async (fixture) => fixtures.saveFromFrames(fixture),
    'mock:fixtureAssign': async ({ slug, fixtureId, mode, scale }) =>
      room.assignFixture(slug, fixtureId, mode, scale),
    'mock:fixtureClear': async ({ slug }) => room.clearFixture(slug),
    'mock:fixtureImport': async ({ text }) => fixtures.importText(text),
    'mock:fixtureExport': async ({ id }) => fixtures.exportText(id),
    'mock:fixtureRemove': async ({ id }) => ({ removed: await fixtures.remove(id) }),
  };
}
