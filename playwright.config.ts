import { defineConfig, type PlaywrightTestOptions, type PlaywrightWorkerOptions } from '@playwright/test';

// scripts/test.mjs finds the browser and passes it in; see scripts/find-chromium.mjs.
const executablePath = process.env.CHROMIUM_PATH;

/** The browser the web project drives (the Electron project launches the app itself). */
const chromium: Partial<PlaywrightTestOptions & PlaywrightWorkerOptions> = {
  headless: true,
  viewport: { width: 1280, height: 800 },
  trace: 'retain-on-failure',
  launchOptions: {
    ...(executablePath ? { executablePath } : {}),
    // Closed network here: keep Chromium from reaching out at start-up (machines/node.md).
    args: [
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    ],
  },
};

export default defineConfig({
  outputDir: 'test-results/e2e-artifacts',
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  projects: [
    // The console in Chromium through the web host.
    { name: 'web', testDir: 'test/e2e', use: chromium },
    // The desktop app through Playwright's _electron; skips in one line where Electron is missing.
    { name: 'electron', testDir: 'test/electron', testMatch: '**/*.e2e.spec.ts' },
  ],
});
