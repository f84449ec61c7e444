// keys:… — the vault's keys as id, name, last four characters and the servers they may go to; a
// secret crosses once, inward, with the server it is for.
import type { KeyInfo } from '../../../shared/bridge';
import type { KeyMeta } from '../../core/key-vault';
import { normaliseBaseUrl, originOf } from '../../core/profiles';
import type { DomainHandlers, HandlerContext } from './context';

export function keyInfo(meta: KeyMeta): KeyInfo {
  return {
    id: meta.id,
    name: meta.name,
    last4: meta.last4,
    createdAt: meta.createdAt,
    storage: meta.storage,
    ...(meta.tier !== undefined ? { tier: meta.tier } : {}),
    ...(meta.origins ? { origins: [...meta.origins] } : {}),
  };
}

export function keysHandlers({ core, emit, onClose }: HandlerContext): DomainHandlers<'keys'> {
  const keys = (): KeyInfo[] => core.vault.list().map(keyInfo);
  // Every change, whoever made it (a window, the Mock screen, a learned tier), reaches every window.
  onClose(core.vault.subscribe(() => emit('keys:changed', keys())));
  return {
    'keys:list': async () => keys(),
    // Bound to its server as it is added (docs/security.md, "Where a key may be sent"); the URL is
    // checked as a profile's is, before the keychain is touched.
    'keys:add': async ({ name, secret, baseUrl, sessionOnly }) => {
      const origins = [originOf(normaliseBaseUrl(baseUrl))];
      const added = await core.vault.add({
        name,
        secret,
        origins,
        ...(sessionOnly !== undefined ? { sessionOnly } : {}),
      });
      return keyInfo(added);
    },
    'keys:remove': async ({ id }) => {
      await core.vault.remove(id);
      return { removed: id };
    },
  };
}
