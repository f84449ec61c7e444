// Non-secret settings: `settings.json` in the data dir, read on every use (the CLI and the app may
// both change it) and written whole and atomically (temp file, fsync, rename: private-files.ts),
// 0600. The file's shape is described once here with zod, and it is checked on every read, because
// people edit this file by hand and a half-written file must not crash the app.
//
// A file that does not parse or validate is never silently wiped: it is renamed to
// `settings.json.corrupt-<timestamp>`, the app starts from empty settings, and the caller gets a
// warning to show, so key names and profiles can be recovered by hand.
//
// (This was `conf` until it turned out that its atomic-write dependency hooks SIGINT and SIGTERM
// and re-raises them, killing a CLI run or the headless monitor in the middle of its clean stop.)
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { HistoryRetention } from '../../shared/transcript';
import { withFileLockSync } from './folder-lock';
import { replacePrivateFileSync } from './private-files';

export const SETTINGS_FILE_NAME = 'settings.json';

/** Metadata of a key whose secret is in the OS keychain; session keys are never written here. */
const StoredKeySchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1).max(100),
  /** Masked, e.g. `…abcd`. */
  last4: z.string(),
  createdAt: z.string(),
  /** Learned from `X-RateLimit-Limit`. */
  tier: z.number().int().positive().optional(),
  storage: z.literal('os-keychain'),
  /** The origins (scheme://host:port) the key may be sent to; none yet: not used yet. */
  origins: z.array(z.string()).optional(),
});
export type StoredKey = z.infer<typeof StoredKeySchema>;

const StoredProfileSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1).max(100),
  baseUrl: z.string(),
  keyId: z.string().min(1),
  caCertPath: z.string().optional(),
  proxy: z.string().optional(),
  proxyPasswordSavedAt: z.number().optional(),
  clientCert: z
    .object({
      file: z.string(),
      format: z.enum(['pem', 'pkcs12']),
      subject: z.string(),
      issuer: z.string(),
      validTo: z.number(),
      passphraseSavedAt: z.number().optional(),
    })
    .optional(),
});
export type StoredProfile = z.infer<typeof StoredProfileSchema>;

// Loose at the top level: fields written by a newer version of the app survive a round trip
// through this one instead of being dropped on the next save.
const SettingsSchema = z.looseObject({
  keys: z.array(StoredKeySchema).default([]),
  profiles: z.array(StoredProfileSchema).default([]),
  activeProfileId: z.string().optional(),
  /** Desktop (and browser) notifications of status changes muted in the app. */
  notificationsMuted: z.boolean().optional(),
  /** The name incidents are acknowledged and updated under (the OS user name when unset). */
  incidentName: z.string().trim().min(1).max(100).optional(),
  /** How many suite runs are kept, and for how long (docs/architecture.md, "Run history and diffs"). */
  testRuns: z
    .strictObject({
      keep: z.number().int().min(1).max(100_000).optional(),
      maxAgeDays: z.number().int().min(1).max(36_500).optional(),
    })
    .optional(),
  /** How much recorded history is kept (docs/architecture.md, "The history database"); all without. */
  history: HistoryRetention.optional(),
  /** The desktop app's updates: off when `enabled` is false; the channel it follows (app-updates.ts). */
  updates: z
    .strictObject({
      enabled: z.boolean().optional(),
      channel: z.enum(['stable', 'beta']).optional(),
    })
    .optional(),
});
type Settings = z.infer<typeof SettingsSchema>;

export interface SettingsStore {
  readonly path: string;
  /** A fresh, validated copy: changing it changes nothing on disk. */
  read(): Settings;
  /** Reads, lets `change` edit a copy, validates and writes it atomically; returns what was written. */
  update(change: (draft: Settings) => void): Settings;
}

export interface SettingsOpening {
  store: SettingsStore;
  /** Set when the existing file was unreadable and has been set aside; show it to the user. */
  warning?: string;
}

export interface SettingsOptions {
  now?: () => number;
  /** Told when the file turns out unreadable later, after opening (edited by hand while running). */
  onWarning?: (warning: string) => void;
}

/** Anything API-key-shaped (docs/decisions.md), anywhere in the text. */
const KEY_SHAPED = /(?<![A-Za-z0-9])[A-Za-z0-9]{3}_[A-Za-z0-9]{32}(?![A-Za-z0-9])/;

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'it does not have the expected shape';
  const where = issue.path.length > 0 ? issue.path.join('.') : 'the top level';
  return `${where} is invalid (${issue.message})`;
}

function backupName(path: string, now: number): string {
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
  let candidate = `${path}.corrupt-${stamp}`;
  for (let n = 1; existsSync(candidate); n++) candidate = `${path}.corrupt-${stamp}-${n}`;
  return candidate;
}

export function openSettingsStore(dataDir: string, options: SettingsOptions = {}): SettingsOpening {
  const now = options.now ?? Date.now;
  const path = join(dataDir, SETTINGS_FILE_NAME);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const readRaw = (): unknown => {
    try {
      return JSON.parse(readFileSync(path, 'utf8')) as unknown;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
  };

  const setAside = (problem: string): string => {
    const backup = backupName(path, now());
    renameSync(path, backup);
    return (
      `The settings file ${path} could not be read (${problem}), so the console started with empty ` +
      `settings. The old file was kept as ${backup}; saved key names and profiles can be recovered from it.`
    );
  };
  const notJson = 'it is not valid JSON';

  const load = (): { settings: Settings; warning?: string } => {
    let raw: unknown;
    try {
      raw = readRaw();
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      return { settings: SettingsSchema.parse({}), warning: setAside(notJson) };
    }
    const parsed = SettingsSchema.safeParse(raw);
    if (parsed.success) return { settings: parsed.data };
    return { settings: SettingsSchema.parse({}), warning: setAside(describeIssue(parsed.error)) };
  };

  const read = (): Settings => {
    const { settings, warning } = load();
    if (warning) options.onWarning?.(warning);
    return settings;
  };

  const store: SettingsStore = {
    path,
    read,
    update(change) {
      // Read, changed and written under the file's lock: the CLI and a running app (or two CLIs)
      // never lose each other's writes.
      return withFileLockSync(path, () => {
        const draft = read();
        change(draft);
        const next = SettingsSchema.parse(draft);
        // Last line of defence for "never in clear" (docs/security.md): whatever a caller does, nothing
        // key-shaped reaches this file.
        if (KEY_SHAPED.test(JSON.stringify(next))) {
          throw new Error('Refused to write settings: they contain something shaped like an API key.');
        }
        // Names and URLs are nobody else's business on a shared machine: 0600.
        replacePrivateFileSync(path, `${JSON.stringify(next, undefined, '\t')}\n`);
        return next;
      });
    },
  };

  const openingWarning = load().warning;
  return openingWarning ? { store, warning: openingWarning } : { store };
}
