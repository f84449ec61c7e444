// keys:… — the vault's keys as id, name, last four characters and the servers they may go to; a
// secret crosses once, inward, with the server it is for (electron/core/key-info.ts).
import { addKeyFor, keyInfos } from '../../core/key-info';
import type { DomainHandlers, HandlerContext } from './context';

export function keysHandlers({ core, emit, onClose }: HandlerContext): DomainHandlers<'keys'> {
  // Every change, whoever made it (a window, the Mock screen, a learned tier), reaches every window.
  onClose(core.vault.subscribe(() => emit('keys:changed', keyInfos(core.vault))));
  return {
    'keys:list': async () => keyInfos(core.vault),
    'keys:add': async (key) => addKeyFor(core.vault, key),
    'keys:remove': async ({ id }) => (await core.vault.remove(id), { removed: id }),
  };
}
