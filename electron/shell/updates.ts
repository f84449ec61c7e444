// The desktop app keeps itself up to date with electron-updater: it looks for a newer version at
// start and then daily, on the channel the user follows (stable, or beta with pre-releases),
// downloads it in the background — electron-updater checks the download's sha512 against the
// feed, and on Windows and macOS the installer's signature — and installs it only on the user's
// word, "Restart to update". Turned off in Settings, or for the whole machine by
// AGENT_CONSOLE_UPDATES=off; AGENT_CONSOLE_UPDATE_URL points it at a company's own mirror
// (docs/architecture.md, "Updates"). Its requests go through Electron's network stack, so the
// operating system's proxy settings apply to them.
import { app } from 'electron';
import electronUpdater, { type AppUpdater, type ProgressInfo, type UpdateInfo } from 'electron-updater';
import type { UpdateStatus } from '../../shared/bridge/app';
import { rememberLatest, updateSettings, updatesLockedOff, type AppUpdates } from '../core/app-updates';
import { isLoopbackHost } from '../core/profiles';
import type { SettingsStore } from '../core/settings-store';

/** The first check waits for the start to be over; then one a day. */
const FIRST_CHECK_AFTER_MS = 10_000;
const CHECK_EVERY_MS = 24 * 60 * 60 * 1000;
/** A feed's error text is shown, never a page of it. */
const MAX_ERROR_LENGTH = 300;

interface UpdatesOptions {
  settings: SettingsStore;
  dataDir: string;
  version: string;
  log: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  now?: () => number;
  /** electron-updater's updater for this platform (a test may give its own). */
  updater?: AppUpdater;
  firstCheckAfterMs?: number;
}

/** A feed URL of the company's own (AGENT_CONSOLE_UPDATE_URL): https, or http on this computer. */
function mirrorFeed(env: NodeJS.ProcessEnv): string | undefined {
  const value = env.AGENT_CONSOLE_UPDATE_URL?.trim();
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error('AGENT_CONSOLE_UPDATE_URL is not a URL: updates stay off.');
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname)))
    return url.href;
  throw new Error(
    'AGENT_CONSOLE_UPDATE_URL must be https:// (http:// only on this computer): updates stay off.',
  );
}

export function startUpdates(options: UpdatesOptions): AppUpdates & { stop(): void } {
  const env = options.env ?? process.env;
  const now = options.now ?? Date.now;
  const listeners = new Set<(status: UpdateStatus) => void>();
  const lockedOffBy = updatesLockedOff(env);
  let feedProblem: string | undefined;
  let feed: string | undefined;
  try {
    feed = mirrorFeed(env);
  } catch (error) {
    feedProblem = (error as Error).message;
  }
  // Where the app cannot replace itself (run from source; on Linux, not an AppImage or a .deb),
  // electron-updater says so and does nothing; the Settings screen says so too.
  const supported = app.isPackaged && feedProblem === undefined;
  let updater: AppUpdater | undefined;
  let status: UpdateStatus = {
    supported,
    ...(lockedOffBy ? { lockedOffBy } : {}),
    ...updateSettings(options.settings),
    current: options.version,
    phase: feedProblem ? 'error' : 'idle',
    ...(feedProblem ? { error: feedProblem } : {}),
  };
  if (lockedOffBy) status.enabled = false;

  const set = (change: Partial<UpdateStatus>): void => {
    status = { ...status, ...change };
    for (const listener of listeners) listener(status);
  };

  const made = (): AppUpdater => {
    if (updater) return updater;
    updater = options.updater ?? electronUpdater.autoUpdater;
    updater.autoDownload = true;
    // Installed on the user's word only: "Restart to update", never behind their back at quit.
    updater.autoInstallOnAppQuit = false;
    updater.logger = {
      info: (message?: unknown) => options.log(`updates: ${String(message)}`),
      warn: (message?: unknown) => options.log(`updates: ${String(message)}`),
      error: (message?: unknown) => options.log(`updates: ${String(message)}`),
      debug: () => undefined,
    };
    if (feed) updater.setFeedURL({ provider: 'generic', url: feed });
    updater.on('checking-for-update', () => set({ phase: 'checking' }));
    updater.on('update-not-available', () => set({ phase: 'up-to-date', checkedAt: now() }));
    updater.on('update-available', (info: UpdateInfo) => {
      rememberLatest(options.dataDir, info.version, now());
      set({ phase: 'downloading', latest: info.version, percent: 0, checkedAt: now() });
    });
    updater.on('download-progress', (progress: ProgressInfo) =>
      set({ percent: Math.floor(progress.percent) }),
    );
    updater.on('update-downloaded', (info: UpdateInfo) =>
      set({ phase: 'ready', latest: info.version, percent: 100 }),
    );
    updater.on('error', (error: Error) =>
      set({
        phase: 'error',
        error: String(error?.message ?? error).slice(0, MAX_ERROR_LENGTH),
        checkedAt: now(),
      }),
    );
    return updater;
  };

  const check = async (): Promise<UpdateStatus> => {
    if (
      !status.supported ||
      !status.enabled ||
      status.phase === 'checking' ||
      status.phase === 'downloading'
    ) {
      return status;
    }
    const current = made();
    current.channel = status.channel === 'beta' ? 'beta' : 'latest';
    current.allowPrerelease = status.channel === 'beta';
    try {
      await current.checkForUpdates();
    } catch (error) {
      set({
        phase: 'error',
        error: String((error as Error).message).slice(0, MAX_ERROR_LENGTH),
        checkedAt: now(),
      });
    }
    return status;
  };

  let timers: NodeJS.Timeout[] = [];
  const schedule = (): void => {
    for (const timer of timers) clearTimeout(timer);
    timers = [];
    if (!status.supported || !status.enabled) return;
    timers.push(setTimeout(() => void check(), options.firstCheckAfterMs ?? FIRST_CHECK_AFTER_MS).unref());
    timers.push(setInterval(() => void check(), CHECK_EVERY_MS).unref());
  };
  schedule();

  return {
    status: () => status,
    check,
    configure(change) {
      if (!lockedOffBy) {
        options.settings.update((draft) => {
          draft.updates = {
            ...draft.updates,
            ...(change.enabled !== undefined ? { enabled: change.enabled } : {}),
            ...(change.channel !== undefined ? { channel: change.channel } : {}),
          };
        });
        set({ ...updateSettings(options.settings) });
        schedule();
      }
      return status;
    },
    install() {
      if (status.phase !== 'ready' || !updater) return false;
      // Not silent on Windows (the installer shows its progress), and the app starts again.
      updater.quitAndInstall(false, true);
      return true;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop() {
      for (const timer of timers) clearTimeout(timer);
      timers = [];
    },
  };
}
