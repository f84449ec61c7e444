// profiles:… — which service, with which key and CA; the active one is what every screen uses.
import type { ProfileInfo } from '../../../shared/bridge';
import { CoreError } from '../../core/core-error';
import type { Profile } from '../../core/profiles';
import { toBridgeError } from '../bridge-error';
import type { DomainHandlers, HandlerContext } from './context';

export function profilesHandlers({ core, emit, onClose }: HandlerContext): DomainHandlers<'profiles'> {
  const info = (p: Profile): ProfileInfo => ({ ...p, active: core.profiles.active()?.id === p.id });
  const profiles = (): ProfileInfo[] => core.profiles.list().map(info);
  onClose(core.profiles.subscribe(() => emit('profiles:changed', profiles())));
  return {
    'profiles:list': async () => profiles(),
    'profiles:add': async ({ name, baseUrl, keyId, caCertPem, confirmKey }) => {
      // A new origin for a stored key needs the key typed again (issue 13): a call alone cannot confirm.
      if (confirmKey !== undefined) await core.vault.confirmWithSecret(keyId, confirmKey);
      const input = { name, baseUrl, keyId, ...(caCertPem !== undefined ? { caCertPem } : {}) };
      return info(core.profiles.add(input, { originConfirmed: confirmKey !== undefined }));
    },
    'profiles:remove': async ({ id }) => {
      core.profiles.remove(id);
      return { removed: id };
    },
    'profiles:use': async ({ id }) => {
      const profile = core.profiles.use(id);
      core.appLog.info(`Active profile: ${profile.name} (${profile.baseUrl})`);
      return info(profile);
    },
    'profiles:test': async ({ id }) => {
      const profile = core.profiles.get(id);
      if (!profile) throw new CoreError('NOT_FOUND', 'That profile no longer exists.');
      const started = performance.now();
      try {
        const health = await core.client(profile).health();
        return { ok: true, durationMs: Math.round(performance.now() - started), health };
      } catch (error) {
        return {
          ok: false,
          durationMs: Math.round(performance.now() - started),
          error: toBridgeError(error),
        };
      }
    },
  };
}
