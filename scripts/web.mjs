// `npm run web`: build the renderer and the web host's bundle, then serve the console with the
// embedded mock on 127.0.0.1 (out/node/web-host.js: no tsx at run time).
import { spawn } from 'node:child_process';
import { buildRenderer, ensureNodeTools } from './build.mjs';

await buildRenderer();
await ensureNodeTools();
const child = spawn(process.execPath, ['out/node/web-host.js'], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
