// out/node/web-host.js, what `npm run web` runs: the web host's bundle (web-host.bundle.cjs) started
// through V8's code cache (code-cache.ts).
import { fileURLToPath } from 'node:url';
import { runBundle } from './code-cache';

runBundle(fileURLToPath(new URL('./web-host.bundle.cjs', import.meta.url)), 'web-host');
