// The monitors as the console core runs them: saved in <data dir>/monitors.yaml (or the
// file `agent-console monitor --config` names), each through its profile's client and the core's
// exchanges, so every check shares its key's one limiter with the user's own traffic. Kept out of
// console-core.ts so the composition root stays a list of parts.
import { join } from 'node:path';
import type { Clock } from '../../shared/clock';
import type { ApiClient } from './api-client';
import type { HealthMonitor } from './health-monitor';
import { MONITORS_FILE, type MonitorConfig } from './monitors/monitor-config';
import { MonitorRegistry } from './monitors/monitor-registry';
import type { ProfileStore } from './profile-store';
import type { Profile } from './profiles';
import type { SecretStore } from './secret-store';
import type { SettingsStore } from './settings-store';
import type { Suites } from './suites/suites';

/** The parts of ConsoleCore the monitors use (structural: no import cycle). */
export interface MonitorsHost {
  dataDir: string;
  clock: Clock;
  profiles: ProfileStore;
  secrets: SecretStore;
  suites: Suites;
  health: HealthMonitor;
  client(profile: Profile): ApiClient;
  settings?: SettingsStore;
}

export interface CoreMonitorsOptions {
  /** Another monitors file (headless); it is read, never written. Default: the data folder's. */
  file?: string;
  /** The headless monitor: no active-profile poll of its own. */
  headless?: boolean;
  serviceProfile?: (config: MonitorConfig) => Promise<Profile>;
  onWarning?: (message: string) => void;
}

export async function openCoreMonitors(
  core: MonitorsHost,
  options: CoreMonitorsOptions = {},
): Promise<MonitorRegistry> {
  const registry = new MonitorRegistry(
    {
      clock: core.clock,
      profiles: core.profiles,
      client: (profile) => core.client(profile),
      suites: core.suites,
      secrets: core.secrets,
      ...(options.headless ? {} : { activeHealth: core.health }),
      ...(options.serviceProfile ? { serviceProfile: options.serviceProfile } : {}),
      ...(options.onWarning ? { onWarning: options.onWarning } : {}),
      desktopMuted: () => core.settings?.read().notificationsMuted === true,
      incidentName: () => core.settings?.read().incidentName,
    },
    {
      file: options.file ?? join(core.dataDir, MONITORS_FILE),
      historyDir: join(core.dataDir, 'monitors'),
      readOnly: options.file !== undefined,
    },
  );
  await registry.open();
  return registry;
}
