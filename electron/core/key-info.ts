// The vault's keys as every window sees them — id, name, last four characters and the servers they
// may go to, never a secret — and a key added from a window, bound to its server as it is added.
import type { KeyInfo } from '../../shared/bridge/keys';
import type { KeyMeta, KeyVault, NewKey } from './key-vault';
import { normaliseBaseUrl, originOf } from './profiles';

function keyInfo(meta: KeyMeta): KeyInfo {
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

export function keyInfos(vault: KeyVault): KeyInfo[] {
  return vault.list().map(keyInfo);
}

/**
 * Adds a key for the server at `baseUrl`, the only one it may go to until the user says otherwise
 * (docs/security.md, "Where a key may be sent"). The URL is checked as a profile's is, before the
 * keychain is touched.
 */
export async function addKeyFor(
  vault: KeyVault,
  { baseUrl, ...key }: Omit<NewKey, 'origins'> & { baseUrl: string },
): Promise<KeyInfo> {
  const origins = [originOf(normaliseBaseUrl(baseUrl))];
  return keyInfo(await vault.add({ ...key, origins }));
}
