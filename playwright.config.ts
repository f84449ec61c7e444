import { defineConfig } from '@playwright/test';

// scripts/test.mjs finds the browser and passes it in; see scripts/find-chromium.mjs.
const executablePath = process.env.CHROMIUM_PATH;

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/e2e-artifacts',
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
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
  },
});
