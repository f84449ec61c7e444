// The health monitor as the console core runs it: the active profile's client as the target (so
// polls share the key's limiter), the history in the data dir, the interval kept in settings.json,
// and a new first check whenever the active profile changes.
// Kept out of console-core.ts so the composition root stays a list of parts.
import { join } from 'node:path';
import type { Clock } from '../../shared/clock';
import {
  DEFAULT_HEALTH_INTERVAL_MS,
  MAX_HEALTH_INTERVAL_MS,
  MIN_HEALTH_INTERVAL_MS,
} from '../../shared/health';
import type { ApiClient } from './api-client';
import { HEALTH_HISTORY_FILE } from './health-history';
import { HealthMonitor, type HealthTarget } from './health-monitor';
import type { ProfileStore } from './profile-store';
import type { Profile } from './profiles';
import type { SettingsStore } from './settings-store';

/** The parts of ConsoleCore the monitor uses (a structural type: no import cycle). */
export interface HealthHost {
  dataDir: string;
  clock: Clock;
  settings: SettingsStore;
  profiles: ProfileStore;
  client(profile: Profile): ApiClient;
  /** The saved monitor's name when one watches this profile (then it polls, and this poll waits). */
  watchedBy?: (profileId: string) => string | undefined;
}

const SETTING = 'healthIntervalMs';

/** The saved interval, or the default when the file holds one out of bounds (edited by hand). */
function savedInterval(settings: SettingsStore): number {
  const value = settings.read()[SETTING];
  return typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= MIN_HEALTH_INTERVAL_MS &&
    value <= MAX_HEALTH_INTERVAL_MS
    ? value
    : DEFAULT_HEALTH_INTERVAL_MS;
}

export function createCoreHealthMonitor(
  core: HealthHost,
  onWarning?: (message: string) => void,
): HealthMonitor {
  const target = (): HealthTarget | { unavailable: string } => {
    const profile = core.profiles.active();
    if (!profile) return { unavailable: 'No profile is active: choose one on the Profiles screen.' };
    const watcher = core.watchedBy?.(profile.id);
    if (watcher) return { unavailable: `The monitor "${watcher}" watches this profile (Overview).` };
    let client: ApiClient;
    try {
      client = core.client(profile);
    } catch (error) {
      return { unavailable: (error as Error).message };
    }
    return {
      profileId: profile.id,
      profileName: profile.name,
      health: (options) => client.health(options),
    };
  };
  const monitor = new HealthMonitor({
    clock: core.clock,
    target,
    historyFile: join(core.dataDir, HEALTH_HISTORY_FILE),
    intervalMs: savedInterval(core.settings),
    onIntervalChange: (ms) =>
      core.settings.update((draft) => {
        draft[SETTING] = ms;
      }),
    ...(onWarning ? { onWarning } : {}),
  });
  // Whoever switches the profile (a window, the CLI's `profiles use`, a removal), the monitor follows.
  core.profiles.subscribe(({ activeChanged }) => {
    if (activeChanged) monitor.profileChanged();
  });
  return monitor;
}
