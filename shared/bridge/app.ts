// app:… — what the window shows about the console itself.
import { z } from 'zod';
import { none, returns, type DomainCalls } from './schemas';

export const APP_CALLS = {
  'app:info': { input: none, output: returns<AppInfo>() },
  /** Text for "Copy diagnostics": versions, platform, settings (no secrets), the last log lines. */
  'app:diagnostics': { input: none, output: returns<{ text: string }>() },
  /** Where the desktop app's updates stand (the web host has none: `supported: false`). */
  'app:updates': { input: none, output: returns<UpdateStatus>() },
  /** Looks for a newer version now (and downloads it in the background). */
  'app:checkForUpdates': { input: none, output: returns<UpdateStatus>() },
  /** Turns updates on or off, or changes the channel; kept in settings.json. */
  'app:setUpdates': {
    input: z.strictObject({
      enabled: z.boolean().optional(),
      channel: z.enum(['stable', 'beta']).optional(),
    }),
    output: returns<UpdateStatus>(),
  },
  /** "Restart to update": quits and installs the downloaded version. */
  'app:installUpdate': { input: none, output: returns<{ restarting: boolean }>() },
} as const satisfies DomainCalls<'app'>;

export interface AppEvents {
  'app:updateStatus': UpdateStatus;
}

/** The desktop app's updates as the Settings screen and the header show them. */
export interface UpdateStatus {
  /** False where the app cannot update itself (the web host, a build run from source). */
  supported: boolean;
  /** Checked at start and daily unless turned off. */
  enabled: boolean;
  /** Set when turned off for the whole machine (AGENT_CONSOLE_UPDATES=off): the switch is locked. */
  lockedOffBy?: string;
  channel: 'stable' | 'beta';
  current: string;
  phase: 'idle' | 'checking' | 'up-to-date' | 'downloading' | 'ready' | 'error';
  /** The newer version found (downloading or ready). */
  latest?: string;
  /** Percent downloaded. */
  percent?: number;
  /** What went wrong, in words. */
  error?: string;
  /** When the last check ended (epoch ms). */
  checkedAt?: number;
}

export interface AppInfo {
  version: string;
  transport: 'electron' | 'web';
  platform: string;
  dataDir: string;
  /** Where keys can be saved; `checking` while the keychain's probe is still under way. */
  keychain: { available: boolean; reason?: string; checking?: boolean };
  /** What went wrong while the console opened (a settings file set aside...), in words; masked. */
  warnings: string[];
}
