// app:… — what the window shows about the console itself.
import { none, returns, type DomainCalls } from './schemas';

export const APP_CALLS = {
  'app:info': { input: none, output: returns<AppInfo>() },
  /** Text for "Copy diagnostics": versions, platform, settings (no secrets), the last log lines. */
  'app:diagnostics': { input: none, output: returns<{ text: string }>() },
} as const satisfies DomainCalls<'app'>;

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
