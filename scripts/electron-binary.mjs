// Finds the Electron binary without triggering electron's own download-on-require.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export function electronBinary() {
  const require = createRequire(import.meta.url);
  let pkgDir;
  try {
    pkgDir = dirname(require.resolve('electron/package.json'));
  } catch {
    return { path: undefined, pkgDir: undefined };
  }
  const pathFile = join(pkgDir, 'path.txt');
  const exe = existsSync(pathFile) ? readFileSync(pathFile, 'utf8') : 'electron';
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const candidate = override ? join(override, exe) : join(pkgDir, 'dist', exe);
  const found = existsSync(candidate) && (override !== undefined || existsSync(pathFile));
  return { path: found ? candidate : undefined, pkgDir };
}
