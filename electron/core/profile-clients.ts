// One API client per profile, shared by every caller in the process (the bridge, the CLI, suites,
// monitors), so each key's requests go through its one limiter and into the one request log. A
// client whose profile was removed or now points elsewhere goes, with its connections.
import { readFileSync } from 'node:fs';
import type { Clock } from '../../shared/clock';
import { ApiClient } from './api-client';
import { ApiError } from './api-error';
import type { AppLog } from './app-log';
import {
  clientCertificateTls,
  clientCertPassphraseAccount,
  type ClientCertificateTls,
} from './client-certificate';
import { CoreError } from './core-error';
import type { KeyVault } from './key-vault';
import type { ProfileStore } from './profile-store';
import { originOf, type Profile } from './profiles';
import {
  environmentNamesProxy,
  parseProxyUrl,
  proxyFromEnvironment,
  proxyFromSystem,
  ProxySettingError,
  type ProxyChoice,
} from './proxy';
import type { SecretStore } from './secret-store';
import type { LimiterRegistry } from './rate-limiter';
import type { RequestLog } from './request-log';

interface ProfileClientsHost {
  clock: Clock;
  vault: KeyVault;
  profiles: ProfileStore;
  limiters: LimiterRegistry;
  requestLog: RequestLog;
  appLog: AppLog;
  /** Where proxy passwords are (the OS keychain, or this session's memory). */
  secrets: SecretStore;
  /** The operating system's proxy answer for a URL (the desktop app's; proxy.ts proxyFromSystem). */
  systemProxy?: ((url: string) => Promise<string>) | undefined;
}

/**
 * The proxy a profile's requests take (proxy.ts): its own setting — `none`, or a proxy URL — else
 * the environment's; a variable that is not a proxy URL says which. The embedded mock runs inside
 * this app, where no proxy could reach it: direct.
 */
function proxyFor(profile: Profile): ProxyChoice | undefined {
  if (profile.builtIn || profile.proxy === 'none') return undefined;
  try {
    return profile.proxy
      ? parseProxyUrl(profile.proxy, `The proxy of the profile "${profile.name}"`)
      : proxyFromEnvironment(new URL(profile.baseUrl));
  } catch (error) {
    if (error instanceof ProxySettingError) throw new CoreError('PROXY_SETTING', error.message);
    throw error;
  }
}

/** Where a profile's proxy password is kept in the keychain (core.secrets). */
export const proxyPasswordAccount = (profileId: string): string => `proxy-password:${profileId}`;

export class ProfileClients {
  private readonly clients = new Map<string, { profile: Profile; client: ApiClient }>();

  constructor(private readonly host: ProfileClientsHost) {
    host.profiles.subscribe(() => this.forgetStale());
  }

  /** The profile's client, made once and kept while the profile still points where it did. */
  for(profile: Profile): ApiClient {
    const cached = this.clients.get(profile.id);
    if (cached && sameTarget(cached.profile, profile)) return cached.client;
    if (cached) this.drop(profile.id);
    const { vault, limiters, requestLog, appLog, clock } = this.host;
    const key = vault.get(profile.keyId);
    if (!key) {
      throw new CoreError(
        'NO_KEY_FOR_PROFILE',
        `Profile "${profile.name}" has no API key: choose one of your keys for it.`,
      );
    }
    // The key never goes to an origin it was not added for, even with settings edited behind our
    // back (docs/security.md, "Where a key may be sent").
    if (key.origins && !key.origins.includes(originOf(profile.baseUrl))) {
      throw new CoreError(
        'ORIGIN_NOT_CONFIRMED',
        `Key "${key.name}" was not added for ${originOf(profile.baseUrl)}; add the profile again to confirm.`,
      );
    }
    const client = new ApiClient({
      profileId: profile.id,
      baseUrl: profile.baseUrl,
      ...(profile.caCertPath ? { ca: readFileSync(profile.caCertPath, 'utf8') } : {}),
      proxy: proxyFor(profile),
      ...(this.asksSystem(profile) ? { systemProxy: () => this.systemProxyOf(profile) } : {}),
      ...(profile.proxyPasswordSavedAt
        ? { proxyPassword: () => this.host.secrets.get(proxyPasswordAccount(profile.id)) }
        : {}),
      ...(profile.clientCert ? { clientCert: () => this.clientCertOf(profile) } : {}),
      keyId: key.id,
      secret: () => vault.secretFor(key.id),
      limiter: limiters.for(key.id, key.tier),
      clock,
      log: (entry) => {
        requestLog.add(entry);
        if (entry.status === 0 || entry.status >= 500) {
          appLog.warn(
            `Request failed: ${entry.method} ${entry.url} -> ${entry.status || entry.errorCode || 'no response'}` +
              (entry.requestId ? ` (request ${entry.requestId})` : ''),
          );
        }
        if (entry.rate.limit !== undefined) vault.learnTier(key.id, entry.rate.limit);
      },
    });
    this.clients.set(profile.id, { profile: { ...profile }, client });
    return client;
  }

  /**
   * A profile that names no proxy of its own, in a process with no proxy variables, takes the
   * operating system's where the host can ask for it (the desktop app).
   */
  private asksSystem(profile: Profile): boolean {
    return (
      this.host.systemProxy !== undefined &&
      !profile.builtIn &&
      profile.proxy === undefined &&
      !environmentNamesProxy()
    );
  }

  private async systemProxyOf(profile: Profile): Promise<ProxyChoice | undefined> {
    const answer = await this.host.systemProxy?.(profile.baseUrl);
    try {
      return answer === undefined ? undefined : proxyFromSystem(answer);
    } catch (error) {
      throw new ApiError({ status: 0, code: 'PROXY_SETTING', message: (error as Error).message });
    }
  }

  /** The profile's client certificate as TLS takes it: our copy, with its passphrase from the keychain. */
  private async clientCertOf(profile: Profile): Promise<ClientCertificateTls> {
    const record = profile.clientCert;
    if (!record) return {};
    let material: Buffer;
    try {
      material = readFileSync(record.file);
    } catch {
      throw new CoreError(
        'CLIENT_CERT_MISSING',
        `The client certificate of the profile "${profile.name}" is missing from the data folder: edit the profile and choose it again.`,
      );
    }
    const passphrase = record.passphraseSavedAt
      ? await this.host.secrets.get(clientCertPassphraseAccount(profile.id))
      : undefined;
    return clientCertificateTls({ material, ...(passphrase ? { passphrase } : {}) }).tls;
  }

  async close(): Promise<void> {
    await Promise.all([...this.clients.values()].map((c) => c.client.close()));
    this.clients.clear();
  }

  /** A profile removed or pointed elsewhere: its client (and its connections) go. */
  private forgetStale(): void {
    for (const [id, { profile }] of this.clients) {
      const now = this.host.profiles.get(id);
      if (!now || !sameTarget(profile, now)) this.drop(id);
    }
  }

  private drop(id: string): void {
    const entry = this.clients.get(id);
    this.clients.delete(id);
    void entry?.client.close().catch(() => undefined);
  }
}

/** Same service, key, CA, proxy and client certificate: the cached client still fits the profile. */
function sameTarget(a: Profile, b: Profile): boolean {
  return (
    a.baseUrl === b.baseUrl &&
    a.keyId === b.keyId &&
    a.caCertPath === b.caCertPath &&
    a.proxy === b.proxy &&
    a.proxyPasswordSavedAt === b.proxyPasswordSavedAt &&
    a.clientCert?.file === b.clientCert?.file &&
    a.clientCert?.passphraseSavedAt === b.clientCert?.passphraseSavedAt
  );
}
