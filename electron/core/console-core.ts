// The composition root of the core: one data dir gives one settings store, key vault, profile
// store, limiter per key, request log and transcript store, shared by every caller in the process
// (the Electron shell, the web host, the CLI), and the feature facades every front end calls:
// `core.chat` (with its `streams`), `core.threads`, `core.suites`, `core.mockRoom`, `core.fixtures`,
// `core.health`, `core.monitors`. Plain Node: no `electron` import.
// First, before any of the core's schemas is made.
import './zod-jitless';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { systemClock, type Clock } from '../../shared/clock';
import { announceEndpoint, withdrawEndpoint } from '../../mock/endpoint-file';
import type { MockServer } from '../../mock/server';
import type { ApiClient } from './api-client';
import { startEmbeddedMock } from './embedded-mock';
import { openAppLog, type AppLog } from './app-log';
import { createCoreHealthMonitor } from './core-health';
import { diagnosticsText } from './diagnostics';
import type { CoreMonitorsOptions } from './core-monitors';
import type { MonitorRegistry } from './monitors/monitor-registry';
import { CoreError } from './core-error';
import { preparePrivateFolders, sweepAtomicLeftovers } from './data-folder';
import { CoreHistory } from './core-history';
import { ChatExchanges, ThreadExchanges } from './exchanges';
import { FixtureStore } from './fixture-store';
import type { HealthMonitor } from './health-monitor';
import type { HealthUpdate } from '../../shared/health';
import { KeyVault, type KeychainStatus } from './key-vault';
import { MockRoom } from './mock-room';
import { mockDataDir } from './paths';
import { ProfileClients } from './profile-clients';
import { installEmbeddedMock, ProfileStore } from './profile-store';
import { originOf, type Profile } from './profiles';
import { LimiterRegistry } from './rate-limiter';
import { redactSecrets } from './redact';
import { RequestLog } from './request-log';
import {
  createMemorySecretStore,
  DEFAULT_KEYCHAIN_SERVICE,
  keychainOnDemand,
  keychainOrMemory,
  openOsKeychain,
  type KeychainOpener,
  type KeychainOpening,
  type SecretStore,
} from './secret-store';
import { openSettingsStore, type SettingsStore } from './settings-store';
import { coreSuiteExchange } from './suites/suite-exchange';
import { Suites } from './suites/suites';
import { TranscriptStore } from './transcript-store';

export interface CoreOptions {
  dataDir: string;
  clock?: Clock;
  keychainService?: string;
  /**
   * Opens the OS keychain: `openOsKeychain(keychainService)` by default. Given, a test decides how
   * the keychain answers. The core calls it when something first needs the keychain, and, with
   * `monitorHealth` (the app, the web host: their windows show where keys are kept), once its
   * start is over (`openKeychainAfter`); it does not wait for it to start.
   */
  openKeychain?: (service: string) => Promise<KeychainOpening>;
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
  /**
   * The operating system's proxy for a URL, as Chromium answers it (`PROXY host:port; DIRECT`):
   * the desktop app gives Electron's `session.resolveProxy`, which follows the system's settings
   * and PAC files. Profiles that name no proxy of their own, with no proxy variables set, use it.
   */
  systemProxy?: (url: string) => Promise<string>;
}

export class ConsoleCore {
  private readonly clients: ProfileClients;
  private healthMonitor: HealthMonitor | undefined;
  private fixtureStore: FixtureStore | undefined;
  private suitesFacade: Suites | undefined;
  private controlRoom: MockRoom | undefined;
  private monitorRegistry: MonitorRegistry | undefined;
  private secretStore: SecretStore | undefined;
  /** Chats, streamed or not: recorded, limited and logged in one place (exchanges.ts). */
  readonly chat = new ChatExchanges(this);
  /** Threads: created and continued, recorded under the thread's agent (exchanges.ts). */
  readonly threads = new ThreadExchanges(this);
  /** The history's upkeep: retention, deleting by profile or agent, the data folder's size. */
  readonly history = new CoreHistory(this);
  private onWarning: ((message: string) => void) | undefined;
  /** The system's proxy for a URL (the desktop app's; CoreOptions.systemProxy). */
  systemProxy: ((url: string) => Promise<string>) | undefined;
  private appVersion = 'unknown';
  private closing = false;
  /**
   * What went wrong while opening (a settings or mock state file set aside, ...): every front end
   * shows it to the user, not only stderr or the log.
   */
  startupWarnings: readonly string[] = [];

  private constructor(
    readonly dataDir: string,
    readonly clock: Clock,
    readonly settings: SettingsStore,
    readonly vault: KeyVault,
    readonly profiles: ProfileStore,
    readonly limiters: LimiterRegistry,
    readonly requestLog: RequestLog,
    readonly transcripts: TranscriptStore,
    readonly mock: MockServer | undefined,
    /** The console's own rotating log, in <data dir>/logs, keys masked (app-log.ts). */
    readonly appLog: AppLog,
  ) {
    this.clients = new ProfileClients(this);
  }

  static async open(options: CoreOptions): Promise<ConsoleCore> {
    const clock = options.clock ?? systemClock;
    // Before anything writes in it: a folder that is not this user's alone, or a link where one of
    // our folders goes, is refused in words (the CLI's one line, the web host's, the app's dialog).
    preparePrivateFolders(options.dataDir);
    const appLog = openAppLog(options.dataDir);
    appLog.info(
      `Agent Console${options.appVersion ? ` ${options.appVersion}` : ''} starting; data in ${options.dataDir}`,
    );
    // Before anything reads the folder: what a kill -9 left mid-write (the real files are whole).
    const leftovers = await sweepAtomicLeftovers(options.dataDir);
    if (leftovers.length > 0) {
      appLog.info(
        `Removed ${leftovers.length} temporary file(s) left by an interrupted write: ${leftovers.join(', ')}`,
      );
    }
    // Every warning the core gives its caller goes to the log too.
    const told = options.onWarning;
    const whileOpening: string[] = [];
    let opened = false;
    options = {
      ...options,
      onWarning: (message) => {
        appLog.warn(message);
        if (!opened) whileOpening.push(redactSecrets(message));
        told?.(message);
      },
    };
    const { store: settings, warning } = openSettingsStore(options.dataDir, {
      ...(options.onWarning ? { onWarning: options.onWarning } : {}),
    });
    if (warning) options.onWarning?.(warning);
    // The keychain's probe (a write, a read and a delete over D-Bus, answered by another process
    // that writes a file each time) waits until the start is over, and in the CLI until a command
    // needs a secret: the embedded mock's key is a session key. What needs the keychain (a key kept
    // there, a webhook URL) opens it and waits for it, and `keychain` says "checking" meanwhile
    // (a busy keyring daemon held up the first screen by 50–200 ms on a loaded machine; a locked
    // keychain, the whole start until the user unlocked it). The binding's first entry,
    // which connects to the session bus on this thread, took 8–60 ms of the start's own, on the
    // way to the first screen's health check.
    const mockStarting = startEmbeddedMock(options, clock);
    mockStarting.catch(() => undefined); // awaited below, once the vault is made
    const keychain = keychainOnDemand(() =>
      (options.openKeychain ?? openOsKeychain)(options.keychainService ?? DEFAULT_KEYCHAIN_SERVICE),
    );
    // The vault refuses to remove a key a profile uses; the profiles refuse a key the vault lacks.
    const vault: KeyVault = new KeyVault({
      settings,
      keychainOpener: keychain,
      usedBy: (keyId) =>
        profiles
          .list()
          .filter((p) => p.keyId === keyId)
          .map((p) => p.name),
    });
    const profiles: ProfileStore = new ProfileStore(settings, {
      keyExists: (id) => vault.has(id),
      caDir: join(options.dataDir, 'ca'),
      clientCertDir: join(options.dataDir, 'client-certs'),
      keyOrigins: {
        status: (keyId, origin) => vault.originStatus(keyId, origin),
        allow: (keyId, origin) => vault.allowOrigin(keyId, origin),
      },
    });
    // Keys saved before origins were kept: bound to where their profiles already send them.
    for (const profile of profiles.list()) {
      if (vault.get(profile.keyId)?.origins === undefined)
        vault.allowOrigin(profile.keyId, originOf(profile.baseUrl));
    }
    const limiters = new LimiterRegistry({ clock });
    const requestLog = new RequestLog({
      clock,
      ...(options.appVersion ? { appVersion: options.appVersion } : {}),
    });
    const transcripts = new TranscriptStore(join(options.dataDir, 'transcripts'), {
      clock,
      onWriteError: (error) => options.onWarning?.(error.message),
      log: { info: (line) => appLog.info(line), warn: (line) => appLog.warn(line) },
    });

    const { mock, running } = await mockStarting;
    await nextTurn();
    if (running) {
      await installEmbeddedMock(vault, profiles, {
        baseUrl: running.baseUrl,
        caCertPath: running.caCertPath,
        demoKey: running.keys.pro as string,
      });
    } else if (mock) {
      // Announced like a standalone mock, so the CLI on this folder uses it rather than a second one.
      announceEndpoint(mockDataDir(options.dataDir), {
        baseUrl: mock.baseUrl,
        caCertPath: mock.caCertPath,
        pid: process.pid,
        keys: mock.keys,
      });
      await installEmbeddedMock(vault, profiles, {
        baseUrl: mock.baseUrl,
        caCertPath: mock.caCertPath,
        demoKey: mock.keys.pro,
      });
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
      mock,
      appLog,
    );
    core.onWarning = options.onWarning;
    core.systemProxy = options.systemProxy;
    opened = true;
    core.startupWarnings = whileOpening;
    core.secretStore = keychainOrMemory(keychain);
    core.appVersion = options.appVersion ?? 'unknown';
    core.history.schedule();
    appLog.info(`Started: active profile ${profiles.active()?.name ?? 'none'}`);
    void keychain.opened.then(
      (opening) =>
        appLog.info(
          `Keychain ${opening.available ? `available (${opening.backend})` : `unavailable (${opening.reason})`}`,
        ),
      (error: unknown) => appLog.warn(`The keychain could not be opened: ${(error as Error).message}`),
    );
    if (options.monitorHealth) {
      await nextTurn();
      core.health.start();
      openKeychainAfter(keychain, core.health.firstPollOver(), () => !core.closing);
      await core.openMonitors();
      core.monitors.start();
    }
    return core;
  }

  /**
   * Polls the active profile's GET /health (made on first use; polling once started). It follows
   * the active profile itself (core-health.ts).
   */
  get health(): HealthMonitor {
    return (this.healthMonitor ??= createCoreHealthMonitor(
      {
        dataDir: this.dataDir,
        clock: this.clock,
        settings: this.settings,
        profiles: this.profiles,
        client: (profile) => this.client(profile),
        // A saved monitor watching the active profile polls it; this poll waits, so none is doubled.
        watchedBy: (profileId) => this.monitorRegistry?.forProfile(profileId)?.name,
      },
      this.onWarning,
    ));
  }

  /**
   * The poll a health question is about: the monitor named (a drill-down from the Overview), else
   * the one watching the active profile — its saved monitor if it has one, else its own poll.
   */
  healthPoll(monitorId?: string): HealthMonitor {
    const monitors = this.monitorRegistry;
    if (monitorId) return monitors?.get(monitorId)?.health ?? this.health;
    return monitors?.forProfile(this.profiles.active()?.id)?.health ?? this.health;
  }

  /**
   * Every health update from one stream: the monitors' — each saved monitor's poll, named, and the
   * active profile's own — once they are open, as the app and the web host have them; before that
   * (a front end that watches nothing else), the active profile's poll alone.
   */
  onHealthUpdate(listener: (update: HealthUpdate & { monitorId?: string }) => void): () => void {
    if (!this.monitorRegistry) return this.health.subscribe(listener);
    return this.monitorRegistry.subscribe((event) => {
      if (event.type !== 'health') return;
      listener(event.monitorId ? { ...event.update, monitorId: event.monitorId } : event.update);
    });
  }

  /** Whether keys can be saved in the OS keychain; `checking` while its probe is under way. */
  get keychain(): KeychainStatus {
    return this.vault.keychainStatus;
  }

  /** Secrets that are not API keys (webhook URLs): the OS keychain, else this session's memory. */
  get secrets(): SecretStore {
    return (this.secretStore ??= createMemorySecretStore());
  }

  /** Opens the monitors (core-monitors.ts); the app and the web host do at start, the headless monitor with its file. */
  async openMonitors(options: CoreMonitorsOptions = {}): Promise<MonitorRegistry> {
    if (this.monitorRegistry) return this.monitorRegistry;
    // Loaded here, not at start: monitors bring suites, YAML and JSON Schema, which a CLI call
    // that watches nothing should not pay for.
    const { openCoreMonitors } = await import('./core-monitors');
    this.monitorRegistry = await openCoreMonitors(this, {
      ...options,
      ...(this.onWarning && !options.onWarning ? { onWarning: this.onWarning } : {}),
    });
    return this.monitorRegistry;
  }

  /** Every environment watched; opened by `openMonitors`. */
  get monitors(): MonitorRegistry {
    if (!this.monitorRegistry)
      throw new CoreError('MONITORS_CLOSED', 'The monitors are not open in this process.');
    return this.monitorRegistry;
  }

  /** Recorded replies the mock can replay, in <data dir>/fixtures: one store for every front end. */
  get fixtures(): FixtureStore {
    return (this.fixtureStore ??= FixtureStore.inDataDir(this.dataDir));
  }

  /** The in-process mock's control room, as the Mock screen uses it (mock-room.ts). */
  get mockRoom(): MockRoom {
    return (this.controlRoom ??= new MockRoom(this));
  }

  /**
   * Agent test suites, for the CLI's `test`, the Tests screen and the synthetic checks alike
   * (suites/suites.ts). Made on first use; its heavy parts load at their first call.
   */
  get suites(): Suites {
    return (this.suitesFacade ??= new Suites({
      dataDir: this.dataDir,
      exchange: coreSuiteExchange(this),
      profile: (ref) => this.profile(ref),
      transcript: (ref) => this.transcripts.get(ref),
      replyReviews: (ref) => Object.fromEntries(Object.entries(this.transcripts.reviews.byMessage(ref))),
      appLog: this.appLog,
      retention: () => this.settings.read().testRuns ?? {},
    }));
  }

  /** The profile to use: the named one (by id or name), else the active one. */
  profile(ref?: string): Profile {
    if (ref === undefined) {
      const active = this.profiles.active();
      if (!active) {
        throw new CoreError(
          'NO_PROFILE',
          'No profile is active: choose one on the Profiles screen (or `agent-console profiles use NAME`).',
        );
      }
      return active;
    }
    const wanted = ref.toLowerCase();
    const found = this.profiles.list().find((p) => p.id === ref || p.name.toLowerCase() === wanted);
    if (!found) throw new CoreError('PROFILE_NOT_FOUND', `No profile named "${ref}".`);
    return found;
  }

  /** The API client of a profile; one per profile, sharing the key's limiter with every other caller. */
  client(profile: Profile): ApiClient {
    return this.clients.for(profile);
  }

  /** What Help › Copy Diagnostics gives (diagnostics.ts). */
  diagnostics(options: { logLines?: number; electron?: string } = {}): string {
    const { dataDir, appLog, keychain, profiles, settings, appVersion } = this;
    return diagnosticsText({ dataDir, appLog, keychain, profiles, settings, appVersion }, options);
  }

  async close(): Promise<void> {
    this.closing = true;
    this.chat.streams.close();
    await this.suitesFacade?.close();
    await this.monitorRegistry?.stop();
    await this.healthMonitor?.stop();
    await this.clients.close();
    this.history.close();
    try {
      this.transcripts.close();
    } finally {
      if (this.mock) withdrawEndpoint(mockDataDir(this.dataDir));
      await this.mock?.close();
      this.appLog.close();
    }
  }
}

/**
 * Longest the keychain waits for the first screen's health check (a service that is slow to
 * answer): the Keys screen says "checking" until it is open.
 */
const KEYCHAIN_AFTER_START_MS = 1_000;

/**
 * Opens the keychain once the first health check is over (the first screen says "Connected" from
 * it), or KEYCHAIN_AFTER_START_MS from now if that is sooner, unless the core is closing by then;
 * whatever needs the keychain before that opens it then.
 */
function openKeychainAfter(
  keychain: KeychainOpener,
  firstCheck: Promise<void>,
  stillOpen: () => boolean,
): void {
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<void>((go) => (timer = setTimeout(go, KEYCHAIN_AFTER_START_MS)));
  void Promise.race([firstCheck, cap]).then(() => {
    clearTimeout(timer);
    if (stillOpen()) void keychain.open();
  });
}
