// electron-builder's `--dir` target for Linux against a stand-in Electron distribution (the real
// one cannot be downloaded here): the package exactly as an installer would hold it, minus the
// Electron binary. Used by the packaged-layout launch test and by `npm run bench` (its size).
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Arch, build, Platform } from 'electron-builder';

/** What electron-builder copies from an Electron distribution on Linux; the binary cannot run. */
function standInElectronDist(work: string): string {
  const dir = join(work, 'electron-dist');
  mkdirSync(join(dir, 'resources'), { recursive: true });
  writeFileSync(
    join(dir, 'electron'),
    '#!/bin/sh\necho "stand-in Electron binary: not runnable" >&2\nexit 1\n',
  );
  chmodSync(join(dir, 'electron'), 0o755);
  const { version } = JSON.parse(readFileSync('node_modules/electron/package.json', 'utf8')) as {
    version: string;
  };
  writeFileSync(join(dir, 'version'), version);
  writeFileSync(join(dir, 'LICENSE'), 'stand-in');
  writeFileSync(join(dir, 'LICENSES.chromium.html'), 'stand-in');
  return dir;
}

/** Packages the built app (run scripts/build.mjs first) under `work`; returns its resources folder. */
export async function packageWithStandIn(work: string): Promise<string> {
  await build({
    projectDir: process.cwd(),
    targets: Platform.LINUX.createTarget('dir', Arch.x64),
    publish: 'never',
    // Fuses cannot be flipped in a stand-in binary; electron-builder.yml's are checked in
    // builder-config.test.ts.
    config: {
      electronDist: standInElectronDist(work),
      electronFuses: null,
      directories: { output: join(work, 'dist') },
    },
  });
  return join(work, 'dist', 'linux-unpacked', 'resources');
}
