// Profiles as every window sees them (which one is active), and what a window does with them: add
// one, with a key's new server confirmed by the key typed again; make one active; test one.
import type { BridgeError } from '../../shared/bridge';
import type { ConnectionTest, ProfileInfo } from '../../shared/bridge/profiles';
import type { ApiClient } from './api-client';
import { ApiError } from './api-error';
import type { AppLog } from './app-log';
import { CoreError } from './core-error';
import type { KeyVault } from './key-vault';
import type { ProfileStore } from './profile-store';
import type { NewProfile, Profile } from './profiles';
import { readServerChain } from './server-certificate';

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

/**
 * A profile changed from a window, by the rule of `addProfileConfirmed`: a new base URL or key
 * that would send the key to a server new to it needs the key typed again.
 */
export async function updateProfileConfirmed(
  core: { vault: KeyVault; profiles: ProfileStore },
  {
    id,
    confirmKey,
    systemCa,
    ...changes
  }: Omit<NewProfile, 'caCertPath'> & {
    id: string;
    systemCa?: true | undefined;
    confirmKey?: string | undefined;
  },
): Promise<ProfileInfo> {
  if (confirmKey !== undefined) await core.vault.confirmWithSecret(changes.keyId, confirmKey);
  const updated = core.profiles.update(
    id,
    { ...changes, ...(systemCa ? { caCertPath: null } : {}) },
    { originConfirmed: confirmKey !== undefined },
  );
  return profileInfo(core.profiles, updated);
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
    const durationMs = Math.round(performance.now() - started);
    return { ok: false, durationMs, error: describe(await withIssuer(error, profile.baseUrl)) };
  }
}

/** A certificate not trusted, said with its issuer (read from the chain the server presents). */
async function withIssuer(error: unknown, baseUrl: string): Promise<unknown> {
  if (!(error instanceof ApiError) || error.code !== 'UNTRUSTED_CERT') return error;
  const chain = await readServerChain(baseUrl).catch(() => undefined);
  const issuer = chain?.chain.at(-1)?.issuer;
  if (!issuer) return error;
  return new ApiError({
    ...error.toJSON(),
    message: `The service's certificate is not trusted; its issuer is ${issuer}. Nothing was sent. To trust it, edit the profile and add the issuer's CA certificate.`,
    cause: error,
  });
}
