// The composition root of the core: one data dir gives one settings store, key vault, profile
// store, limiter per key, request log and transcript store, shared by every caller in the process
// (the Electron shell, the web host, the CLI). Plain Node: no `electron` import.
import { readFileSync } from 'node:fs';
import { arch, platform, release } from 'node:os';
import { join } from 'node:path';
import { systemClock, type Clock } from '../../shared/clock';
import { findRunningEndpoint } from '../../mock/endpoint-file';
import { startMockServer, type MockServer } from '../../mock/server';
import { ApiClient } from './api-client';
import { openAppLog, type AppLog } from './app-log';
import { createCoreHealthMonitor } from './core-health';
import type { HealthMonitor } from './health-monitor';
import { KeyVault } from './key-vault';
import { installEmbeddedMock, ProfileStore, type Profile } from './profiles';
import { LimiterRegistry } from './rate-limiter';
import { redactSecrets } from './redact';
import { RequestLog } from './request-log';
import { DEFAULT_KEYCHAIN_SERVICE, openOsKeychain } from './secret-store';
import { openSettingsStore, type SettingsStore } from './settings-store';
import { TranscriptStore } from './transcript-store';

export interface CoreOptions {
  dataDir: string;
  clock?: Clock;
  keychainService?: string;
  /**
   * The built-in "Embedded mock" profile: `in-process` starts the mock here; `discover` uses a
   * standalone mock already running on this data dir (`npm run mock`), else starts one here;
   * `none` leaves the profile out.
   */
  embeddedMock?: 'in-process' | 'discover' | 'none';
  appVersion?: string;
  /** Starts the health monitor (the app and the web host do; the CLI and most tests do not). */
  monitorHealth?: boolean;
  onWarning?: (message: string) => void;
}

export interface KeychainStatus {
  available: boolean;
  /** Why not, in words for the user. */
  reason?: string;
}

export class ConsoleCore {
  private readonly clients = new Map<string, ApiClient>();
  private healthMonitor: HealthMonitor | undefined;
  private onWarning: ((message: string) => void) | undefined;
  private appVersion = 'unknown';

  private constructor(
    readonly dataDir: string,
    readonly clock: Clock,
    readonly settings: SettingsStore,
    readonly vault: KeyVault,
    readonly profiles: ProfileStore,
    readonly limiters: LimiterRegistry,
    readonly requestLog: RequestLog,
    readonly transcripts: TranscriptStore,
    readonly keychain: KeychainStatus,
    readonly mock: MockServer | undefined,
    /** The console's own rotating log, in <data dir>/logs, keys masked (app-log.ts). */
    readonly appLog: AppLog,
  ) {}

  static async open(options: CoreOptions): Promise<ConsoleCore> {
    const clock = options.clock ?? systemClock;
    const appLog = openAppLog(options.dataDir);
    appLog.info(
      `Agent Console${options.appVersion ? ` ${options.appVersion}` : ''} starting; data in ${options.dataDir}`,
    );
    // Every warning the core gives its caller goes to the log too.
    const told = options.onWarning;
    options = {
      ...options,
      onWarning: (message) => {
        appLog.warn(message);
        told?.(message);
      },
    };
    const { store: settings, warning } = openSettingsStore(options.dataDir, {
      ...(options.onWarning ? { onWarning: options.onWarning } : {}),
    });
    if (warning) options.onWarning?.(warning);
    const opening = await openOsKeychain(options.keychainService ?? DEFAULT_KEYCHAIN_SERVICE);
    const vault = new KeyVault({
      settings,
      ...(opening.available ? { keychain: opening.store } : { keychainUnavailableReason: opening.reason }),
    });
    const profiles = new ProfileStore(settings, { keyExists: (id) => vault.has(id) });
    const limiters = new LimiterRegistry({ clock });
    const requestLog = new RequestLog({
      clock,
      ...(options.appVersion ? { appVersion: options.appVersion } : {}),
    });
    const transcripts = new TranscriptStore(join(options.dataDir, 'transcripts'), {
      clock,
      onWriteError: (error) => options.onWarning?.(error.message),
    });

    let mock: MockServer | undefined;
    const mode = options.embeddedMock ?? 'in-process';
    if (mode !== 'none') {
      const mockDir = join(options.dataDir, 'mock');
      const running = mode === 'discover' ? findRunningEndpoint(mockDir) : undefined;
      if (running) {
        await installEmbeddedMock(vault, profiles, {
          baseUrl: running.baseUrl,
          caCertPath: running.caCertPath,
          demoKey: running.keys.pro as string,
        });
      } else {
        mock = await startMockServer({ dataDir: mockDir, clock });
        await installEmbeddedMock(vault, profiles, {
          baseUrl: mock.baseUrl,
          caCertPath: mock.caCertPath,
          demoKey: mock.keys.pro,
        });
      }
    }
    const core = new ConsoleCore(
      options.dataDir,
      clock,
      settings,
      vault,
      profiles,
      limiters,
      requestLog,
      transcripts,
      opening.available ? { available: true } : { available: false, reason: opening.reason },
      mock,
      appLog,
    );
    core.onWarning = options.onWarning;
    core.appVersion = options.appVersion ?? 'unknown';
    appLog.info(
      `Started: keychain ${opening.available ? 'available' : `unavailable (${opening.reason})`}, ` +
        `active profile ${profiles.active()?.name ?? 'none'}`,
    );
    if (options.monitorHealth) core.health.start();
    return core;
  }

  /** Polls the active profile's GET /health (made on first use; polling once started). */
  get health(): HealthMonitor {
    return (this.healthMonitor ??= createCoreHealthMonitor(this, this.onWarning));
  }

  /** The profile to use: the named one (by id or name), else the active one. */
  profile(ref?: string): Profile {
    if (ref === undefined) {
      const active = this.profiles.active();
      if (!active)
        throw new Error('No profile is active: add one with `profiles add`, or use the embedded mock.');
      return active;
    }
    const wanted = ref.toLowerCase();
    const found = this.profiles.list().find((p) => p.id === ref || p.name.toLowerCase() === wanted);
    if (!found) throw new Error(`No profile named "${ref}".`);
    return found;
  }

  /** The API client of a profile; one per profile, sharing the key's limiter with every other caller. */
  client(profile: Profile): ApiClient {
    let client = this.clients.get(profile.id);
    if (client) return client;
    const key = this.vault.get(profile.keyId);
    if (!key) throw new Error(`Profile "${profile.name}" has no API key: choose one of your keys for it.`);
    client = new ApiClient({
      profileId: profile.id,
      baseUrl: profile.baseUrl,
      ...(profile.caCertPath ? { ca: readFileSync(profile.caCertPath, 'utf8') } : {}),
      keyId: key.id,
      secret: () => this.vault.secretFor(key.id),
      limiter: this.limiters.for(key.id, key.tier),
      clock: this.clock,
      log: (entry) => {
        this.requestLog.add(entry);
        if (entry.status === 0 || entry.status >= 500) {
          this.appLog.warn(
            `Request failed: ${entry.method} ${entry.url} -> ${entry.status || entry.errorCode || 'no response'}` +
              (entry.requestId ? ` (request ${entry.requestId})` : ''),
          );
        }
        if (entry.rate.limit !== undefined) this.vault.learnTier(key.id, entry.rate.limit);
      },
    });
    this.clients.set(profile.id, client);
    return client;
  }

  /**
   * What "Copy diagnostics" gives (Help menu): versions, platform, where data lives, the keychain,
   * the settings file (key names and profiles only; secrets are never in it) and the last log
   * lines. All of it passes the key mask once more on the way out.
   */
  diagnostics(options: { logLines?: number; electron?: string } = {}): string {
    let settings: string;
    try {
      settings = JSON.stringify(this.settings.read(), null, 2);
    } catch (error) {
      settings = `(unreadable: ${(error as Error).message})`;
    }
    const electron = options.electron ?? process.versions.electron;
    const lines = [
      `Agent Console ${this.appVersion}`,
      `Platform: ${platform()} ${release()} (${arch()})`,
      `Node ${process.versions.node}${electron ? `, Electron ${electron}` : ', not in Electron'}`,
      `Data: ${this.dataDir}`,
      `Log: ${this.appLog.path}`,
      `Keychain: ${this.keychain.available ? 'available' : `unavailable (${this.keychain.reason ?? 'unknown'})`}`,
      `Active profile: ${this.profiles.active()?.name ?? 'none'}`,
      '',
      `Settings (${this.settings.path}):`,
      settings,
      '',
      `Last log lines:`,
      ...this.appLog.tail(options.logLines ?? 200),
    ];
    return redactSecrets(lines.join('\n'));
  }

  async close(): Promise<void> {
    await this.healthMonitor?.stop();
    await Promise.all([...this.clients.values()].map((c) => c.close()));
    this.clients.clear();
    await this.transcripts.flush();
    await this.mock?.close();
  }
}
