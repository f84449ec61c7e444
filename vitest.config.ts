import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

export default defineConfig({
  // What the build defines for the node-side bundles (electron/app-version.d.ts).
  define: { APP_VERSION: JSON.stringify(version) },
  test: {
    include: ['test/**/*.test.ts'],
    // `*.long.test.ts` (the 7-simulated-day monitoring run, minutes of CPU) runs with
    // `npm run test:long`, outside `npm test`'s 20-minute budget.
    exclude: [
      'test/e2e/**',
      'node_modules/**',
      ...(process.env.AGENT_CONSOLE_LONG ? [] : ['test/**/*.long.test.ts']),
    ],
    // Two cores on CI: keep parallelism modest so timing-sensitive suites stay honest.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
