// electron-builder.yml: the installers, asar and the production fuses, checked here
// where Electron cannot be downloaded, and by electron-builder's own schema.
import { existsSync, readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import type { Configuration } from 'app-builder-lib';
import { DebugLogger } from 'builder-util';
import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { parse } from 'yaml';
import { APP_USER_MODEL_ID } from '../../electron/shell/policy';

const config = parse(readFileSync('electron-builder.yml', 'utf8')) as Configuration & Record<string, unknown>;
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  main: string;
  productName: string;
  scripts: Record<string, string>;
};

function targets(platform: unknown): { target: string; arch: string[] }[] {
  const raw = (platform as { target: unknown }).target as (string | { target: string; arch?: string[] })[];
  return raw.map((t) =>
    typeof t === 'string' ? { target: t, arch: [] } : { target: t.target, arch: t.arch ?? [] },
  );
}

/** Width and height of a PNG, and whether its data inflates. */
function pngSize(path: string): { width: number; height: number } {
  const bytes = readFileSync(path);
  expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  const idat: Buffer[] = [];
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    if (bytes.toString('ascii', at + 4, at + 8) === 'IDAT')
      idat.push(bytes.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  expect(inflateSync(Buffer.concat(idat)).length).toBeGreaterThan(0);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('electron-builder.yml', () => {
  it('passes electron-builder’s own configuration schema', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    // …and the schema does reject what it does not know, so the check above means something.
    await expect(
      validateConfiguration({ ...config, notAnOption: true } as Configuration, new DebugLogger(false)),
    ).rejects.toThrow(/notAnOption/);
  });

  it('names the app and packs it into an asar', () => {
    // Also the AppUserModelID the app sets on Windows, or its notifications never show.
    expect(config.appId).toBe(APP_USER_MODEL_ID);
    expect(config.productName).toBe(pkg.productName);
    expect(config.asar).toBe(true);
    expect(config.fileAssociations).toEqual([]);
    expect(config.protocols).toEqual([]);
  });

  it('builds AppImage and deb, a universal dmg, and NSIS', () => {
    expect(targets(config.linux).map((t) => t.target)).toEqual(['AppImage', 'deb']);
    expect(targets(config.mac)).toEqual([{ target: 'dmg', arch: ['universal'] }]);
    expect(targets(config.win).map((t) => t.target)).toEqual(['nsis']);
  });

  it('sets the production fuses', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      resetAdHocDarwinSignature: true,
    });
  });

  it('lets the universal mac app keep a keychain binding per architecture in both halves', () => {
    // Matched as @electron/universal (electron-builder's merger) matches it: its own minimatch.
    const fromBuilder = createRequire(createRequire(import.meta.url).resolve('app-builder-lib'));
    const fromUniversal = createRequire(fromBuilder.resolve('@electron/universal'));
    const { minimatch } = fromUniversal('minimatch') as {
      minimatch: (path: string, pattern: string, options: { matchBase: boolean }) => boolean;
    };
    const matches = (path: string, pattern: string) => minimatch(path, pattern, { matchBase: true });
    const pattern = (config.mac as { x64ArchFiles?: string }).x64ArchFiles ?? '';
    const unpacked = 'Contents/Resources/app.asar.unpacked/node_modules/@napi-rs';
    for (const arch of ['x64', 'arm64']) {
      expect(matches(`${unpacked}/keyring-darwin-${arch}/keyring.darwin-${arch}.node`, pattern)).toBe(true);
    }
    expect(matches('Contents/Frameworks/Electron Framework.framework/Electron Framework', pattern)).toBe(
      false,
    );
  });

  it('ships the built app (main, preload, renderer) and the manifest, nothing else of ours', () => {
    expect(config.files).toEqual(['out/electron/**', 'out/renderer/**', '!out/**/*.map', 'package.json']);
    expect(pkg.main.startsWith('out/')).toBe(true);
    const build = readFileSync('scripts/build.mjs', 'utf8');
    for (const output of ['out/electron', 'out/renderer']) expect(build).toContain(output);
    expect(pkg.scripts.dist).toBe('node scripts/build.mjs --release && electron-builder');
  });

  it('has every icon it names, a PNG of at least 512×512', () => {
    const icons = [config.linux, config.mac, config.win].map((p) => (p as { icon: string }).icon);
    expect(icons.length).toBe(3);
    for (const icon of icons) {
      expect(existsSync(icon), icon).toBe(true);
      const { width, height } = pngSize(icon);
      expect(width).toBeGreaterThanOrEqual(512);
      expect(height).toBe(width);
    }
    expect(config.directories?.buildResources).toBe('build');
  });
});
