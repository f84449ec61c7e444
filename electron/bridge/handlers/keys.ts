// keys:… — the vault's keys as id, name and last four characters; a secret crosses once, inward.
import type { KeyInfo } from '../../../shared/bridge';
import type { KeyMeta } from '../../core/key-vault';
import type { DomainHandlers, HandlerContext } from './context';

export function keyInfo(meta: KeyMeta): KeyInfo {
  return {
    id: meta.id,
    name: meta.name,
    last4: meta.last4,
    createdAt: meta.createdAt,
    storage: meta.storage,
    ...(meta.tier !== undefined ? { tier: meta.tier } : {}),
  };
}

export function keysHandlers({ core, emit, onClose }: HandlerContext): DomainHandlers<'keys'> {
  const keys = (): KeyInfo[] => core.vault.list().map(keyInfo);
  // Every change, whoever made it (a window, the Mock screen, a learned tier), reaches every window.
  onClose(core.vault.subscribe(() => emit('keys:changed', keys())));
  return {
    'keys:list': async () => keys(),
    'keys:add': async ({ name, secret, sessionOnly }) =>
      keyInfo(await core.vault.add({ name, secret, ...(sessionOnly !== undefined ? { sessionOnly } : {}) })),
    'keys:remove': async ({ id }) => {
      await core.vault.remove(id);
      return { removed: id };
    },
  };
}
