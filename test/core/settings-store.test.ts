import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openSettingsStore, SETTINGS_FILE_NAME } from '../../electron/core/settings-store';
import { removeDir, tempDir } from '../support/mock';

let dataDir: string;
beforeEach(() => {
  dataDir = tempDir('agent-console-settings-');
});
afterEach(() => removeDir(dataDir));

const key = {
  id: 'k1',
  name: 'Work',
  last4: '…abcd',
  createdAt: '2026-01-15T12:00:00.000Z',
  storage: 'os-keychain' as const,
};
const NOW = Date.UTC(2026, 0, 15, 12, 30, 45, 678);
const backups = (): string[] =>
  readdirSync(dataDir).filter((f) => f.startsWith(`${SETTINGS_FILE_NAME}.corrupt-`));

test('a new data dir starts with empty settings and no warning', () => {
  const { store, warning } = openSettingsStore(dataDir);
  expect(warning).toBeUndefined();
  expect(store.path).toBe(join(dataDir, SETTINGS_FILE_NAME));
  expect(store.read()).toEqual({ keys: [], profiles: [] });
});

test('updates are written to settings.json (owner-only) and read back by a later process', () => {
  const { store } = openSettingsStore(dataDir);
  const written = store.update((draft) => {
    draft.keys.push(key);
    draft.activeProfileId = 'p1';
  });
  expect(written.keys).toEqual([key]);
  if (process.platform !== 'win32') expect(statSync(store.path).mode & 0o777).toBe(0o600);
  const reopened = openSettingsStore(dataDir);
  expect(reopened.warning).toBeUndefined();
  expect(reopened.store.read()).toMatchObject({ keys: [key], activeProfileId: 'p1' });
});

test('read() hands out copies: changing one changes nothing on disk', () => {
  const { store } = openSettingsStore(dataDir);
  store.read().keys.push(key);
  expect(store.read().keys).toEqual([]);
});

test('fields from a newer version of the app survive a save', () => {
  writeFileSync(join(dataDir, SETTINGS_FILE_NAME), JSON.stringify({ keys: [], theme: 'dark' }));
  const { store } = openSettingsStore(dataDir);
  store.update((draft) => {
    draft.activeProfileId = 'p1';
  });
  expect(JSON.parse(readFileSync(store.path, 'utf8'))).toMatchObject({
    theme: 'dark',
    activeProfileId: 'p1',
  });
});

test('a file that is not JSON is set aside, not wiped, and the caller is told', () => {
  const path = join(dataDir, SETTINGS_FILE_NAME);
  writeFileSync(path, '{"keys": [ {"id": "k1", "na');
  const { store, warning } = openSettingsStore(dataDir, { now: () => NOW });
  expect(backups()).toEqual([`${SETTINGS_FILE_NAME}.corrupt-2026-01-15T12-30-45-678Z`]);
  expect(readFileSync(join(dataDir, backups()[0]!), 'utf8')).toBe('{"keys": [ {"id": "k1", "na');
  expect(warning).toContain('not valid JSON');
  expect(warning).toContain(join(dataDir, backups()[0]!));
  expect(store.read()).toEqual({ keys: [], profiles: [] });
  store.update((draft) => {
    draft.keys.push(key);
  });
  expect(store.read().keys).toEqual([key]);
});

test('a file of the wrong shape is set aside too, and the warning names the field', () => {
  writeFileSync(join(dataDir, SETTINGS_FILE_NAME), JSON.stringify({ keys: [{ ...key, name: 42 }] }));
  const { store, warning } = openSettingsStore(dataDir, { now: () => NOW });
  expect(backups()).toHaveLength(1);
  expect(warning).toMatch(/keys\.0\.name is invalid/);
  expect(store.read().keys).toEqual([]);
});

test('a file broken while the app runs is set aside and reported through onWarning', () => {
  const warnings: string[] = [];
  const { store } = openSettingsStore(dataDir, { onWarning: (w) => warnings.push(w) });
  store.update((draft) => {
    draft.keys.push(key);
  });
  writeFileSync(store.path, '');
  expect(store.read().keys).toEqual([]);
  expect(warnings).toHaveLength(1);
  expect(backups()).toHaveLength(1);
  expect(existsSync(store.path)).toBe(false);
});

test('nothing shaped like an API key is ever written', () => {
  const { store } = openSettingsStore(dataDir);
  const secret = 'zz9_0123456789abcdefABCDEF0123456789';
  expect(() =>
    store.update((draft) => {
      draft.keys.push({ ...key, name: `key ${secret}` });
    }),
  ).toThrow(/shaped like an API key/);
  expect(existsSync(store.path)).toBe(false);
});
