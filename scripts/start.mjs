// `npm start`: the desktop app. Where Electron's binary is missing (and cannot be fetched), say so
// in one line and point at the browser build.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { buildElectron, buildRenderer } from './build.mjs';
import { electronBinary } from './electron-binary.mjs';

const MISSING =
  'Electron is not installed here and could not be downloaded; run `npm run web` to use Agent Console in your browser.';

let { path: binary, pkgDir } = electronBinary();
if (!binary && pkgDir) {
  // A developer laptop with internet: let electron's installer fetch the binary once.
  process.stderr.write('Fetching the Electron binary (first launch)...\n');
  const result = spawnSync(process.execPath, [join(pkgDir, 'install.js')], {
    stdio: 'ignore',
    timeout: 180_000,
  });
  if (result.status === 0) binary = electronBinary().path;
}
if (!binary) {
  console.error(MISSING);
  process.exit(1);
}
await buildRenderer();
await buildElectron();
// A shell that exports ELECTRON_RUN_AS_NODE (VS Code's terminal does) would start Electron as
// plain Node, where `require('electron')` is only a path and the app dies at once.
const env = { ...process.env };
delete env.ELECTRON_RUN_AS_NODE;
const child = spawn(binary, ['.'], { stdio: 'inherit', env });
child.on('exit', (code) => process.exit(code ?? 0));
