// profiles:… — which service, with which key and CA; the active one is what every screen uses
// (electron/core/profile-info.ts).
import {
  addProfileConfirmed,
  profileInfos,
  removeProfile,
  testConnection,
  updateProfileConfirmed,
  useProfile,
} from '../../core/profile-info';
import { readServerChain } from '../../core/server-certificate';
import { toBridgeError } from '../bridge-error';
import type { DomainHandlers, HandlerContext } from './context';

export function profilesHandlers({ core, emit, onClose }: HandlerContext): DomainHandlers<'profiles'> {
  onClose(core.profiles.subscribe(() => emit('profiles:changed', profileInfos(core.profiles))));
  return {
    'profiles:list': async () => profileInfos(core.profiles),
    'profiles:add': async (profile) => addProfileConfirmed(core, profile),
    'profiles:update': async (profile) => updateProfileConfirmed(core, profile),
    'profiles:serverCertificate': async ({ baseUrl }) => readServerChain(baseUrl),
    'profiles:remove': async ({ id }) => removeProfile(core, id),
    'profiles:use': async ({ id }) => useProfile(core, id),
    'profiles:test': async ({ id }) => testConnection(core, id, toBridgeError),
  };
}
