// Profiles as every window sees them (which one is active), and what a window does with them: add
// one, with a key's new server confirmed by the key typed again; make one active; test one.
import type { BridgeError } from '../../shared/bridge';
import type { ConnectionTest, ProfileInfo } from '../../shared/bridge/profiles';
import type { ApiClient } from './api-client';
import type { AppLog } from './app-log';
import { CoreError } from './core-error';
import type { KeyVault } from './key-vault';
import type { ProfileStore } from './profile-store';
import type { NewProfile, Profile } from './profiles';

function profileInfo(profiles: ProfileStore, profile: Profile): ProfileInfo {
  return { ...profile, active: profiles.active()?.id === profile.id };
}

export function profileInfos(profiles: ProfileStore): ProfileInfo[] {
  return profiles.list().map((profile) => profileInfo(profiles, profile));
}

/**
 * A profile added from a window. A key goes to a server it was not added for only with the key
 * typed again (`confirmKey`): a call alone, which anyone holding the web host's token can make,
 * cannot confirm (docs/security.md, "Where a key may be sent").
 */
export async function addProfileConfirmed(
  core: { vault: KeyVault; profiles: ProfileStore },
  { confirmKey, ...profile }: Omit<NewProfile, 'caCertPath'> & { confirmKey?: string | undefined },
): Promise<ProfileInfo> {
  if (confirmKey !== undefined) await core.vault.confirmWithSecret(profile.keyId, confirmKey);
  const added = core.profiles.add(profile, { originConfirmed: confirmKey !== undefined });
  return profileInfo(core.profiles, added);
}

export function useProfile(core: { profiles: ProfileStore; appLog: AppLog }, id: string): ProfileInfo {
  const profile = core.profiles.use(id);
  core.appLog.info(`Active profile: ${profile.name} (${profile.baseUrl})`);
  return profileInfo(core.profiles, profile);
}

/** Calls GET /health with the profile and says how it went, a failure in the caller's words. */
export async function testConnection(
  core: { profiles: ProfileStore; client(profile: Profile): ApiClient },
  id: string,
  describe: (error: unknown) => BridgeError,
): Promise<ConnectionTest> {
  const profile = core.profiles.get(id);
  if (!profile) throw new CoreError('NOT_FOUND', 'That profile no longer exists.');
  const started = performance.now();
  try {
    const health = await core.client(profile).health();
    return { ok: true, durationMs: Math.round(performance.now() - started), health };
  } catch (error) {
    return { ok: false, durationMs: Math.round(performance.now() - started), error: describe(error) };
  }
}
