// The desktop app's updates as the rest of the console sees them: whether they are on (the user's
// setting in settings.json, or the whole machine's AGENT_CONSOLE_UPDATES=off for managed installs),
// the channel followed, and the newest version the app has heard of, kept in the data folder so
// the CLI can mention it without a request of its own. The updating itself (electron-updater) is
// the desktop shell's: electron/shell/updates.ts (docs/architecture.md, "Updates").
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { valid as validVersion, gt as newerThan } from 'semver';
import type { UpdateStatus } from '../../shared/bridge/app';
import { replacePrivateFileSync } from './private-files';
import type { SettingsStore } from './settings-store';

/** What the bridge asks of the updater: the desktop shell's, or the web host's none. */
export interface AppUpdates {
  status(): UpdateStatus;
  check(): Promise<UpdateStatus>;
  configure(change: { enabled?: boolean | undefined; channel?: 'stable' | 'beta' | undefined }): UpdateStatus;
  /** Quits and installs the downloaded version; false when none is ready. */
  install(): boolean;
  subscribe(listener: (status: UpdateStatus) => void): () => void;
}

/** The value of AGENT_CONSOLE_UPDATES that turns updates off for everyone on the machine. */
export function updatesLockedOff(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env.AGENT_CONSOLE_UPDATES?.trim().toLowerCase();
  return value === 'off' || value === '0' || value === 'false' ? 'AGENT_CONSOLE_UPDATES=off' : undefined;
}

/** The user's choice (settings.json): on unless turned off, the stable channel unless beta. */
export function updateSettings(settings: SettingsStore): { enabled: boolean; channel: 'stable' | 'beta' } {
  const saved = settings.read().updates;
  return { enabled: saved?.enabled !== false, channel: saved?.channel ?? 'stable' };
}

/** Where the newest version heard of is kept, beside settings.json. */
const latestFile = (dataDir: string): string => join(dataDir, 'update-latest.json');

export function rememberLatest(dataDir: string, version: string, now: number): void {
  if (!validVersion(version)) return; // a feed's odd version string never reaches a terminal
  replacePrivateFileSync(latestFile(dataDir), `${JSON.stringify({ version, checkedAt: now })}\n`);
}

/**
 * The CLI's one line when the app has heard of a newer version than `current`: read from the data
 * folder (no request, nothing to wait for), said only when the user has updates on.
 */
export function updateNotice(dataDir: string, current: string, settings: SettingsStore): string | undefined {
  if (updatesLockedOff() || !updateSettings(settings).enabled) return undefined;
  let known: unknown;
  try {
    known = JSON.parse(readFileSync(latestFile(dataDir), 'utf8'));
  } catch {
    return undefined;
  }
  const version = (known as { version?: unknown } | null)?.version;
  if (typeof version !== 'string' || !validVersion(version) || !validVersion(current)) return undefined;
  if (!newerThan(version, current)) return undefined;
  return `Agent Console ${version} is available (this is ${current}): the desktop app installs it on "Restart to update".`;
}

/** The web host's: it runs from the installed app or from source and updates nothing itself. */
export const noUpdates = (current: string): AppUpdates => {
  const status: UpdateStatus = {
    supported: false,
    enabled: false,
    channel: 'stable',
    current,
    phase: 'idle',
  };
  return {
    status: () => status,
    check: async () => status,
    configure: () => status,
    install: () => false,
    subscribe: () => () => undefined,
  };
};
