// The import rules of eslint.config.js (docs/architecture.md, "Layers and imports") fire: each
// forbidden arrow, written in a file of its folder, is an ESLint error with its rule's words, and
// the arrows the layers rely on are not.
import { describe, expect, test } from 'vitest';
import { importErrors } from '../support/lint-imports';

const MOCK = 'The mock imports only shared/';
const WEB_HOST = 'The web host serves the page without Electron';
const CORE = 'The core serves every front end and imports none of them';
const SHARED = 'shared/ stands alone';

test.each([
  ['mock/server.ts', '../electron/core/folder-lock', MOCK],
  ['mock/cert.ts', '../renderer/app', MOCK],
  ['mock/service.ts', '../test/support/mock', MOCK],
  ['electron/web-host/server.ts', '../shell/policy', WEB_HOST],
  ['electron/core/console-core.ts', '../shell/policy', CORE],
  ['electron/core/console-core.ts', '../bridge/bridge-host', CORE],
  ['electron/core/exchanges.ts', '../cli/output', CORE],
  ['electron/core/paths.ts', '../web-host/server', CORE],
  ['electron/core/suites/suite-runner.ts', '../../bridge/handlers/tests', CORE],
  ['shared/api.ts', '../electron/core/paths', SHARED],
  ['shared/clock.ts', '../mock/time', SHARED],
  ['shared/suite.ts', '../renderer/app', SHARED],
])('a forbidden arrow is a lint error: %s ← %s', async (file, from, words) => {
  expect(await importErrors(file, from)).toEqual([expect.stringContaining(words)]);
});

describe('the arrows the layers rely on stay allowed', () => {
  test.each([
    ['mock/server.ts', '../shared/api'],
    ['mock/server.ts', './control'],
    ['electron/web-host/server.ts', '../bridge/bridge-host'],
    ['electron/web-host/server.ts', '../../shared/page-policy'],
    ['electron/core/console-core.ts', '../../mock/server'],
    ['electron/core/console-core.ts', '../../shared/bridge'],
    ['electron/core/suites/suite-loader.ts', '../../../shared/bridge/suites'],
    ['electron/core/suites/suite-loader.ts', '../yaml-file'],
    ['electron/cli/mock-serve.ts', '../core/folder-lock'],
    ['shared/bridge-api.ts', './bridge'],
  ])('%s ← %s', async (file, from) => {
    expect(await importErrors(file, from)).toEqual([]);
  });
});
