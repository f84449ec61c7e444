// Every monitor of the console: the saved ones (<data dir>/monitors.yaml, or the file
// the headless `agent-console monitor --config` names), each on its own profile and so its own
// key and limiter, plus the active profile's own health poll (core.health) while no saved monitor
// watches that profile. One place tells of changes: desktop notifications (the shell, the
// browser), the channels (channels/), the tray and window title (the worst status), and the metrics.
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { Clock } from '../../../shared/clock';
import type { HealthUpdate } from '../../../shared/health';
import {
  worstStatus,
  type MonitorNotification,
  type MonitorView,
  type SyntheticResult,
  type TestNotificationResult,
  type WatchStatus,
} from '../../../shared/monitor';
import type { ApiClient } from '../api-client';
import { CoreError } from '../core-error';
import type { HealthMonitor } from '../health-monitor';
import { ensurePrivateDirSync, replacePrivateFile } from '../private-files';
import type { ProfileStore } from '../profile-store';
import type { Profile } from '../profiles';
import type { SecretStore } from '../secret-store';
import type { Suites } from '../suites/suites';
import {
  checkMonitors,
  loadMonitorsFile,
  monitorsFileText,
  type MonitorConfig,
  type MonitorInput,
} from './monitor-config';
import { IncidentDesk, type Telling } from './incident-desk';
import { osUserName } from './incident-name';
import { Monitor } from './monitor';
import { implicitView, withWebhooks } from './monitor-view';
import type { NewChannel } from '../../../shared/bridge/monitors';
import { ChannelDispatch } from './channels/channel-dispatch';
import { forgetChannels, rememberEnvSecrets, storeChannels } from './channels/channel-secrets';

export interface MonitorRegistryHost {
  clock: Clock;
  profiles: ProfileStore;
  client(profile: Profile): ApiClient;
  /** The synthetic checks run through the core's suites. */
  suites: Suites;
  /** Where channel secrets added in the app are kept (the OS keychain, or memory without one). */
  secrets: SecretStore;
  /** The active profile's own health poll; the headless monitor has none. */
  activeHealth?: HealthMonitor;
  /** A monitor given a service in its file (headless): its profile, with the key from the environment. */
  serviceProfile?: (config: MonitorConfig) => Promise<Profile>;
  onWarning?: (message: string) => void;
  /** All desktop notifications muted in the app; the channels still are told. */
  desktopMuted?: () => boolean;
  /** The name set in settings that incidents are acknowledged and updated under. */
  incidentName?: () => string | undefined;
}

export interface MonitorRegistryOptions {
  /** The monitors file; saved to when monitors change in the app. */
  file: string;
  /** Where each monitor keeps its history (`<dir>/<id>/`); none keeps it in memory. */
  historyDir?: string;
  /** The headless monitor reads its file and never writes it. */
  readOnly?: boolean;
}

export type RegistryEvent =
  | { type: 'changed' }
  | { type: 'health'; monitorId: string | undefined; update: HealthUpdate }
  | { type: 'synthetic'; monitorId: string; results: SyntheticResult[] }
  | { type: 'notification'; notification: MonitorNotification }
  | { type: 'incidents' };

/** The implicit monitor of the active profile, as listed. */
const ACTIVE_MONITOR_ID = 'active-profile';

export class MonitorRegistry {
  private configs: MonitorConfig[] = [];
  private readonly monitors = new Map<string, Monitor>();
  private readonly listeners = new Set<(event: RegistryEvent) => void>();
  private running = false;
  private unwatchActive: (() => void) | undefined;
  private desk: IncidentDesk | undefined;
  private readonly channels: ChannelDispatch;

  constructor(
    private readonly host: MonitorRegistryHost,
    private readonly options: MonitorRegistryOptions,
  ) {
    this.channels = new ChannelDispatch({
      secrets: host.secrets,
      sleep: (ms, signal) => host.clock.sleep(ms, signal),
      ...(host.onWarning ? { onWarning: host.onWarning } : {}),
    });
  }

  /** The saved monitors' incidents: acknowledge, add an update, resolve. */
  get incidents(): IncidentDesk {
    if (!this.desk) throw new CoreError('NOT_OPEN', 'The monitors are not open.');
    return this.desk;
  }

  /** Reads the monitors file and makes its monitors (not yet polling). */
  async open(): Promise<void> {
    const historyDir = this.options.historyDir;
    if (historyDir) ensurePrivateDirSync(historyDir, dirname(historyDir));
    this.desk = new IncidentDesk(
      {
        clock: this.host.clock,
        escalation: (id) => {
          const monitor = this.monitors.get(id);
          const escalate = monitor?.inMaintenance() ? undefined : monitor?.config.notify.escalate;
          return escalate
            ? { afterMs: escalate.after, ...(escalate.to ? { to: escalate.to } : {}) }
            : undefined;
        },
        renotify: (telling, ids) => {
          const config = this.monitors.get(telling.monitorId)?.config;
          if (!config) return;
          const webhooks = config.notify.webhooks.filter(
            (h) => !ids || (h.id !== undefined && ids.includes(h.id)),
          );
          this.notify(telling, { desktop: config.notify.desktop, muted: config.notify.muted, webhooks });
        },
        changed: () => this.emit({ type: 'incidents' }),
        acted: (incident, action) => {
          const config = this.monitors.get(incident.monitorId)?.config;
          // A muted monitor told PagerDuty nothing, so there is no alert to follow.
          if (config && !config.notify.muted)
            this.channels.incidentActed(config.notify.webhooks, incident, action);
        },
        operator: () => this.host.incidentName?.()?.trim() || osUserName(),
      },
      historyDir ? join(historyDir, 'incidents.jsonl') : undefined,
    );
    this.configs = await loadMonitorsFile(this.options.file);
    for (const config of this.configs) await this.make(config);
    const active = this.host.activeHealth;
    if (active) {
      this.unwatchActive = active.subscribe((update) => {
        this.emit({ type: 'health', monitorId: undefined, update });
        const t = update.transition;
        if (t) {
          this.notify(
            {
              monitorId: ACTIVE_MONITOR_ID,
              monitorName: update.state.profileName ?? 'Active profile',
              from: t.from,
              to: t.to,
              at: t.at,
              title: t.title,
              body: t.body,
            },
            { desktop: t.notify, muted: false, webhooks: [] },
          );
        }
      });
    }
  }

  start(): void {
    this.running = true;
    for (const monitor of this.monitors.values()) monitor.start();
    this.desk?.start();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.unwatchActive?.();
    await this.desk?.stop();
    await Promise.all([...this.monitors.values()].map((m) => m.stop()));
    await this.channels.stop();
  }

  subscribe(listener: (event: RegistryEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get(id: string): Monitor | undefined {
    return this.monitors.get(id);
  }

  all(): Monitor[] {
    return [...this.monitors.values()];
  }

  /** The saved monitor watching a profile, if any. */
  forProfile(profileId: string | undefined): Monitor | undefined {
    return profileId === undefined ? undefined : this.all().find((m) => m.profile.id === profileId);
  }

  /** The Overview's rows: the saved monitors, then the active profile's own poll if nothing watches it. */
  list(): MonitorView[] {
    const views = this.all().map((m) => {
      const incident = this.desk?.log.openFor(m.id);
      return { ...withWebhooks(m.view(), m.config), ...(incident ? { incident } : {}) };
    });
    const active = this.host.activeHealth;
    const profile = this.host.profiles.active();
    if (active && profile && !this.forProfile(profile.id)) {
      views.push(implicitView(ACTIVE_MONITOR_ID, active, profile));
    }
    return views;
  }

  worst(): WatchStatus {
    return worstStatus(this.list().map((v) => v.status));
  }

  /** Adds a monitor (the app); channel secrets given in clear go to the secret store, never the file. */
  async add(input: MonitorInput & { newChannels?: NewChannel[] }): Promise<MonitorView> {
    const { newChannels, ...rest } = input;
    const id = input.id ?? `m-${randomUUID().slice(0, 8)}`;
    const webhooks = await storeChannels(this.host.secrets, newChannels ?? []);
    const [config] = checkMonitors([
      { ...rest, id, notify: { ...rest.notify, webhooks: [...(rest.notify?.webhooks ?? []), ...webhooks] } },
    ]);
    if (this.configs.some((c) => c.name.toLowerCase() === config?.name.toLowerCase())) {
      throw new CoreError('DUPLICATE_NAME', `A monitor named "${config?.name}" already exists.`);
    }
    if (this.forProfile(this.profileOf(config as MonitorConfig)?.id)) {
      throw new CoreError(
        'PROFILE_WATCHED',
        'Another monitor already watches that profile: edit that one instead.',
      );
    }
    await this.save([...this.configs, config as MonitorConfig]);
    const monitor = await this.make(config as MonitorConfig);
    if (this.running) monitor.start();
    this.emit({ type: 'changed' });
    return withWebhooks(monitor.view(), monitor.config);
  }

  /** Replaces a monitor's settings (its history is kept: same id, same folder). */
  async update(id: string, input: MonitorInput & { newChannels?: NewChannel[] }): Promise<MonitorView> {
    const old = this.requireConfig(id);
    const { newChannels, ...rest } = input;
    // The form's box says on or off; `show-errors`, which only the file says, stays while it is on.
    const shown =
      rest.public === true && typeof old.public === 'object' ? old.public : (rest.public ?? old.public);
    const added = await storeChannels(this.host.secrets, newChannels ?? []);
    // What the app's form does not show stays as the file has it.
    const [config] = checkMonitors([
      {
        ...(old.budgets ? { budgets: old.budgets } : {}),
        ...(old.slo ? { slo: old.slo } : {}),
        ...rest,
        ...(shown !== undefined ? { public: shown } : {}),
        id,
        notify: {
          ...(old.notify.escalate ? { escalate: old.notify.escalate } : {}),
          ...rest.notify,
          webhooks: [...(rest.notify?.webhooks ?? []), ...added],
        },
      },
    ]);
    const next = config as MonitorConfig;
    if (this.configs.some((c) => c.id !== id && c.name.toLowerCase() === next.name.toLowerCase())) {
      throw new CoreError('DUPLICATE_NAME', `A monitor named "${next.name}" already exists.`);
    }
    await this.save(this.configs.map((c) => (c.id === id ? next : c)));
    await forgetChannels(this.host.secrets, old, next);
    await this.monitors.get(id)?.stop();
    this.monitors.delete(id);
    const monitor = await this.make(next);
    if (this.running) monitor.start();
    this.emit({ type: 'changed' });
    return withWebhooks(monitor.view(), monitor.config);
  }

  async remove(id: string): Promise<void> {
    const config = this.requireConfig(id);
    await this.save(this.configs.filter((c) => c.id !== id));
    await forgetChannels(this.host.secrets, config, undefined);
    await this.monitors.get(id)?.stop();
    this.monitors.delete(id);
    this.emit({ type: 'changed' });
  }

  /** The channels of a monitor whose ids are listed (an edit keeps them; the others are dropped). */
  keptWebhooks(id: string, ids: readonly string[]): MonitorConfig['notify']['webhooks'] {
    const wanted = new Set(ids);
    return this.requireConfig(id).notify.webhooks.filter((h, i) => wanted.has(h.id ?? String(i)));
  }

  /** "Send test notification": every channel of the monitor, now; resolves with what failed. */
  async sendTest(id: string): Promise<TestNotificationResult> {
    const at = this.host.clock.now();
    const monitor = this.monitors.get(id);
    const name = monitor?.name ?? (id === ACTIVE_MONITOR_ID ? 'Active profile' : undefined);
    if (!name) throw new CoreError('NOT_FOUND', 'There is no such monitor.');
    const status = monitor?.currentStatus() ?? this.host.activeHealth?.state().confirmed ?? 'unknown';
    const notification: MonitorNotification = {
      monitorId: id,
      monitorName: name,
      from: status,
      to: status,
      at,
      title: 'Test notification',
      body: `${name}: notifications reach you here.`,
      desktop: monitor ? monitor.config.notify.desktop : true,
      test: true,
    };
    if (notification.desktop) this.emit({ type: 'notification', notification });
    const { delivered, failures } = monitor
      ? await this.channels.test(monitor.config.notify.webhooks, notification, this.sourceOf(id))
      : { delivered: 0, failures: [] };
    return { desktop: notification.desktop, webhooks: delivered, failures };
  }

  private requireConfig(id: string): MonitorConfig {
    const config = this.configs.find((c) => c.id === id);
    if (!config) throw new CoreError('NOT_FOUND', 'There is no such monitor (it may have been removed).');
    return config;
  }

  private profileOf(config: MonitorConfig): Profile | undefined {
    if (!config.profile) return undefined;
    const ref = config.profile.toLowerCase();
    return this.host.profiles.list().find((p) => p.id === config.profile || p.name.toLowerCase() === ref);
  }

  private async make(config: MonitorConfig): Promise<Monitor> {
    let profile = this.profileOf(config);
    if (!profile && config.service && this.host.serviceProfile)
      profile = await this.host.serviceProfile(config);
    if (!profile) {
      throw new CoreError(
        'PROFILE_NOT_FOUND',
        `Monitor "${config.name}": no profile named "${config.profile ?? ''}" in this data folder.`,
      );
    }
    // A channel's secret from the environment is masked from the start, not only once it is used.
    rememberEnvSecrets(config);
    const dir = this.options.historyDir ? join(this.options.historyDir, config.id as string) : undefined;
    if (dir && this.options.historyDir) ensurePrivateDirSync(dir, dirname(this.options.historyDir));
    const monitor = new Monitor(config, profile, this.host, dir);
    monitor.subscribe((event) => {
      if (event.kind === 'health') this.emit({ type: 'health', monitorId: monitor.id, update: event.update });
      else if (event.kind === 'synthetic')
        this.emit({ type: 'synthetic', monitorId: monitor.id, results: event.results });
      else {
        const incident = this.desk?.onTransition(event.notification, monitor.failingChecks());
        const n: Telling = { ...event.notification, ...(incident ? { incidentId: incident.id } : {}) };
        // Healthy after a start or a maintenance window is no news; entering a window tells nobody.
        const quiet =
          n.to === 'maintenance' ||
          (n.to === 'healthy' && (n.from === 'unknown' || n.from === 'maintenance'));
        this.notify(n, {
          desktop: config.notify.desktop && !quiet,
          muted: config.notify.muted,
          webhooks: quiet ? [] : config.notify.webhooks,
        });
      }
    });
    this.monitors.set(monitor.id, monitor);
    return monitor;
  }

  /** One confirmed change: a desktop notification and the channels, unless muted. */
  private notify(
    n: Telling,
    channels: { desktop: boolean; muted: boolean; webhooks: MonitorConfig['notify']['webhooks'] },
  ): void {
    const desktop = channels.desktop && !channels.muted && this.host.desktopMuted?.() !== true;
    const notification: MonitorNotification = { ...n, desktop };
    this.emit({ type: 'notification', notification });
    if (channels.muted) return;
    this.channels.send(channels.webhooks, notification, this.sourceOf(n.monitorId));
  }

  /** What PagerDuty is told the affected system is: the watched service's host. */
  private sourceOf(monitorId: string): string {
    const baseUrl = this.monitors.get(monitorId)?.profile.baseUrl;
    try {
      return baseUrl ? new URL(baseUrl).host : 'agent-console';
    } catch {
      return 'agent-console';
    }
  }

  private async save(configs: MonitorConfig[]): Promise<void> {
    if (this.options.readOnly) {
      throw new CoreError(
        'READ_ONLY',
        `The monitors come from ${this.options.file}: edit that file instead.`,
      );
    }
    await replacePrivateFile(this.options.file, monitorsFileText(configs));
    this.configs = configs;
  }

  private emit(event: RegistryEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.host.onWarning?.(`A monitor listener failed: ${(error as Error).message}`);
      }
    }
  }
}
