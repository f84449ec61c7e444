#!/usr/bin/env node
// The CLI runs from its esbuild bundle (out/node/cli.js), never through tsx. In a checkout the
// bundle is (re)built first when it is missing or older than the sources, so `npm install` (whose
// `prepare` builds it) and an edit are all it needs; a copy without the build tools says what to run.
import { existsSync } from 'node:fs';

const bundle = new URL('../out/node/cli.js', import.meta.url);
const sources = new URL('../electron/cli/main.ts', import.meta.url);
if (existsSync(sources)) {
  try {
    const { ensureNodeTools } = await import('../scripts/build.mjs');
    await ensureNodeTools();
  } catch (error) {
    if (!existsSync(bundle)) {
      process.stderr.write(
        `agent-console: the CLI is not built and could not be built (${error.message}): run \`npm install\`, then \`npm run build\`.\n`,
      );
      process.exit(1);
    }
  }
}
if (!existsSync(bundle)) {
  process.stderr.write('agent-console: the CLI is not built: run `npm run build`.\n');
  process.exit(1);
}
await import(bundle.href);
