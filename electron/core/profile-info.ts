// Profiles as every window sees them (which one is active), and what a window does with them: add
// one, with a key's new server confirmed by the key typed again; make one active; test one.
import type { BridgeError } from '../../shared/bridge';
import type { Clock } from '../../shared/clock';
import type { ConnectionTest, ProfileInfo } from '../../shared/bridge/profiles';
import type { ApiClient } from './api-client';
import { ApiError } from './api-error';
import {
  clientCertificateMaterial,
  clientCertPassphraseAccount,
  readClientCertificate,
} from './client-certificate';
import type { AppLog } from './app-log';
import { CoreError } from './core-error';
import type { KeyVault } from './key-vault';
import type { AddOptions, ProfileStore } from './profile-store';
import type { NewProfile, Profile } from './profiles';
import { proxyPasswordAccount } from './profile-clients';
import { rememberSecret } from './redact';
import type { SecretStore } from './secret-store';
import { readServerChain } from './server-certificate';

function profileInfo(profiles: ProfileStore, { clientCert, ...profile }: Profile): ProfileInfo {
  // Where our copy of the certificate is stays here: a window has nothing to do with the file.
  const shownCert = clientCert ? (({ file: _file, ...shown }) => shown)(clientCert) : undefined;
  return {
    ...profile,
    ...(shownCert ? { clientCert: shownCert } : {}),
    active: profiles.active()?.id === profile.id,
  };
}

export function profileInfos(profiles: ProfileStore): ProfileInfo[] {
  return profiles.list().map((profile) => profileInfo(profiles, profile));
}

/** A client certificate as a window gives it (client-certificate.ts): the file, a key apart, a passphrase. */
interface ClientCertificateFields {
  /** PEM text, or a PKCS#12 file in base64. */
  clientCert?: string | undefined;
  clientKey?: string | undefined;
  clientCertPassphrase?: string | undefined;
  /** Show no client certificate any more. */
  noClientCert?: true | undefined;
}

/** Checks the certificate given, before anything is saved: a refusal leaves the profile as it was. */
function checkClientCert(
  fields: ClientCertificateFields,
): ReturnType<typeof readClientCertificate> | undefined {
  if (fields.clientCert === undefined || fields.clientCert.trim() === '') return undefined;
  return readClientCertificate({
    material: clientCertificateMaterial(fields.clientCert),
    ...(fields.clientKey?.trim() ? { key: fields.clientKey } : {}),
    ...(fields.clientCertPassphrase ? { passphrase: fields.clientCertPassphrase } : {}),
  });
}

/**
 * The checked certificate kept for profile `id` (a copy of ours), its passphrase in the keychain;
 * or, with `noClientCert`, neither any more. Nothing given: as it was.
 */
async function keepClientCert(
  core: ProfileHost,
  id: string,
  checked: ReturnType<typeof readClientCertificate> | undefined,
  fields: ClientCertificateFields,
): Promise<void> {
  const account = clientCertPassphraseAccount(id);
  const had = core.profiles.get(id)?.clientCert?.passphraseSavedAt !== undefined;
  if (!checked) {
    if (!fields.noClientCert) return;
    if (had) await core.secrets.delete(account);
    core.profiles.keepClientCert(id, null);
    return;
  }
  const passphrase = fields.clientCertPassphrase || undefined;
  if (passphrase) {
    rememberSecret(passphrase);
    await core.secrets.set(account, passphrase);
  } else if (had) {
    await core.secrets.delete(account);
  }
  const { stored, format, subject, issuer, validTo } = checked;
  core.profiles.keepClientCert(id, {
    stored,
    format,
    subject,
    issuer,
    validTo,
    ...(passphrase ? { passphraseSavedAt: core.clock.now() } : {}),
  });
}

/**
 * A profile added from a window. A key goes to a server it was not added for only with the key
 * typed again (`confirmKey`): a call alone, which anyone holding the web host's token can make,
 * cannot confirm (docs/security.md, "Where a key may be sent").
 */
export async function addProfileConfirmed(
  core: ProfileHost,
  {
    confirmKey,
    proxyPassword,
    clientCert,
    clientKey,
    clientCertPassphrase,
    noClientCert,
    ...profile
  }: Omit<NewProfile, 'caCertPath' | 'proxyPasswordSavedAt' | 'clientCert'> &
    ClientCertificateFields & {
      confirmKey?: string | undefined;
      proxyPassword?: string | undefined;
    },
  /** Where the user typed the command (the CLI), its own say on the key's origin; else confirmKey's. */
  origin?: AddOptions,
): Promise<ProfileInfo> {
  const certFields = { clientCert, clientKey, clientCertPassphrase, noClientCert };
  const certificate = checkClientCert(certFields);
  if (confirmKey !== undefined) await core.vault.confirmWithSecret(profile.keyId, confirmKey);
  const added = core.profiles.add(profile, origin ?? { originConfirmed: confirmKey !== undefined });
  try {
    await keepProxyPassword(core, added.id, proxyPassword);
    await keepClientCert(core, added.id, certificate, certFields);
  } catch (error) {
    core.profiles.remove(added.id); // all or nothing: the form still holds what was typed
    throw error;
  }
  return profileInfo(core.profiles, core.profiles.get(added.id) ?? added);
}

/** The parts of the core a profile's changes reach: its key, the profiles, the keychain. */
interface ProfileHost {
  vault: KeyVault;
  profiles: ProfileStore;
  secrets: SecretStore;
  clock: Clock;
}

/**
 * A proxy password typed in the profile form: into the keychain, never settings.json; the profile
 * keeps when it was saved. '' removes it; undefined leaves it as it is. A profile whose proxy is
 * not a URL (none, or the environment's) keeps no password.
 */
async function keepProxyPassword(
  core: ProfileHost,
  id: string,
  password: string | undefined,
  hadPassword = false,
): Promise<void> {
  const profile = core.profiles.get(id);
  if (!profile) return;
  const account = proxyPasswordAccount(id);
  const usesUrl = profile.proxy !== undefined && profile.proxy !== 'none';
  if (!usesUrl || password === '') {
    if (hadPassword || password === '') {
      await core.secrets.delete(account);
      if (profile.proxyPasswordSavedAt !== undefined)
        core.profiles.update(id, { proxyPasswordSavedAt: null });
    }
    return;
  }
  if (password === undefined) return;
  rememberSecret(password);
  await core.secrets.set(account, password);
  core.profiles.update(id, { proxyPasswordSavedAt: core.clock.now() });
}

/** Removes a profile and the passwords it kept (its proxy's, its client certificate's). */
export async function removeProfile(core: ProfileHost, id: string): Promise<{ removed: string }> {
  const gone = core.profiles.get(id);
  core.profiles.remove(id);
  if (gone?.proxyPasswordSavedAt !== undefined)
    await core.secrets.delete(proxyPasswordAccount(id)).catch(() => false);
  if (gone?.clientCert?.passphraseSavedAt !== undefined)
    await core.secrets.delete(clientCertPassphraseAccount(id)).catch(() => false);
  return { removed: id };
}

/**
 * A profile changed from a window, by the rule of `addProfileConfirmed`: a new base URL or key
 * that would send the key to a server new to it needs the key typed again.
 */
export async function updateProfileConfirmed(
  core: ProfileHost,
  {
    id,
    confirmKey,
    systemCa,
    proxy,
    proxyPassword,
    clientCert,
    clientKey,
    clientCertPassphrase,
    noClientCert,
    ...changes
  }: Omit<NewProfile, 'caCertPath' | 'proxyPasswordSavedAt' | 'clientCert'> &
    ClientCertificateFields & {
      id: string;
      systemCa?: true | undefined;
      confirmKey?: string | undefined;
      proxyPassword?: string | undefined;
    },
): Promise<ProfileInfo> {
  const certFields = { clientCert, clientKey, clientCertPassphrase, noClientCert };
  const certificate = checkClientCert(certFields);
  if (confirmKey !== undefined) await core.vault.confirmWithSecret(changes.keyId, confirmKey);
  const hadPassword = core.profiles.get(id)?.proxyPasswordSavedAt !== undefined;
  const updated = core.profiles.update(
    id,
    {
      ...changes,
      ...(systemCa ? { caCertPath: null } : {}),
      ...(proxy !== undefined ? { proxy: proxy.trim() === '' ? null : proxy } : {}),
    },
    { originConfirmed: confirmKey !== undefined },
  );
  await keepProxyPassword(core, id, proxyPassword, hadPassword);
  await keepClientCert(core, id, certificate, certFields);
  return profileInfo(core.profiles, core.profiles.get(id) ?? updated);
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
