// `npm run web`: build the renderer, then serve it with the embedded mock on 127.0.0.1.
import { spawn } from 'node:child_process';
import { buildRenderer } from './build.mjs';

await buildRenderer();
const child = spawn(process.execPath, ['--import', 'tsx', 'electron/web-host/main.ts'], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
