// The import rules of eslint.config.js (docs/architecture.md, "Layers and imports") fire: each
// forbidden arrow, written in a file of its folder, is an ESLint error with its rule's words, and
// the arrows the layers rely on are not.
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, test } from 'vitest';

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ overrideConfigFile: 'eslint.config.js' });
});

/** The no-restricted-imports messages for one import written in `filePath`. */
async function layerErrors(filePath: string, from: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import { value } from '${from}';\nexport const used = value;\n`, {
    filePath,
  });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
}

describe('forbidden arrows are lint errors', () => {
  test.each([
    ['mock/server.ts', '../electron/core/folder-lock'],
    ['mock/cert.ts', '../renderer/app'],
    ['mock/service.ts', '../test/support/mock'],
  ])('mock/ imports only shared/: %s ← %s', async (file, from) => {
    expect(await layerErrors(file, from)).toEqual([expect.stringContaining('The mock imports only shared/')]);
  });

  test('the web host imports nothing of the shell', async () => {
    expect(await layerErrors('electron/web-host/server.ts', '../shell/policy')).toEqual([
      expect.stringContaining('The web host serves the page without Electron'),
    ]);
  });

  test.each([
    ['electron/core/console-core.ts', '../shell/policy'],
    ['electron/core/console-core.ts', '../bridge/bridge-host'],
    ['electron/core/exchanges.ts', '../cli/output'],
    ['electron/core/paths.ts', '../web-host/server'],
    ['electron/core/suites/suite-runner.ts', '../../bridge/handlers/tests'],
  ])('the core imports none of its front ends: %s ← %s', async (file, from) => {
    expect(await layerErrors(file, from)).toEqual([
      expect.stringContaining('The core serves every front end and imports none of them'),
    ]);
  });

  test.each([
    ['shared/api.ts', '../electron/core/paths'],
    ['shared/clock.ts', '../mock/time'],
    ['shared/suite.ts', '../renderer/app'],
  ])('shared/ imports nothing outside it: %s ← %s', async (file, from) => {
    expect(await layerErrors(file, from)).toEqual([expect.stringContaining('shared/ stands alone')]);
  });
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
    expect(await layerErrors(file, from)).toEqual([]);
  });
});
