// What "Copy diagnostics" gives (Help menu, `app:diagnostics`): versions, platform, where data
// lives, the keychain, the settings file (key names and profiles only; secrets are never in it) and
// the last log lines. All of it passes the key mask once more on the way out.
import { arch, platform, release } from 'node:os';
import type { AppLog } from './app-log';
import type { KeychainStatus } from './key-vault';
import type { ProfileStore } from './profile-store';
import { redactSecrets } from './redact';
import type { SettingsStore } from './settings-store';

interface DiagnosticsHost {
  appVersion: string;
  dataDir: string;
  appLog: AppLog;
  keychain: KeychainStatus;
  profiles: ProfileStore;
  settings: SettingsStore;
}

export function diagnosticsText(
  core: DiagnosticsHost,
  options: { logLines?: number; electron?: string } = {},
): string {
  let settings: string;
  try {
    settings = JSON.stringify(core.settings.read(), null, 2);
  } catch (error) {
    settings = `(unreadable: ${(error as Error).message})`;
  }
  const electron = options.electron ?? process.versions.electron;
  const { keychain } = core;
  const lines = [
    `Agent Console ${core.appVersion}`,
    `Platform: ${platform()} ${release()} (${arch()})`,
    `Node ${process.versions.node}${electron ? `, Electron ${electron}` : ', not in Electron'}`,
    `Data: ${core.dataDir}`,
    `Log: ${core.appLog.path}`,
    `Keychain: ${keychain.available ? 'available' : keychain.checking ? 'still being checked' : `unavailable (${keychain.reason ?? 'unknown'})`}`,
    `Active profile: ${core.profiles.active()?.name ?? 'none'}`,
    '',
    `Settings (${core.settings.path}):`,
    settings,
    '',
    `Last log lines:`,
    ...core.appLog.tail(options.logLines ?? 200),
  ];
  return redactSecrets(lines.join('\n'));
}
