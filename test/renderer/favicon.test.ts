// The page's favicon is drawn small (scripts/make-icon.ts): the browser decodes it on every load,
// and the app's 1024-pixel icon in its place cost each start of the web host's page ~50 ms of CPU
//. The installers keep the 1024 one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Width and height from a PNG's IHDR, which the format puts first. */
function pngSize(path: string): { width: number; height: number } {
  const png = readFileSync(path);
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('icons', () => {
  it('the page links a favicon of at most 64 pixels, square', () => {
    const html = readFileSync('renderer/index.html', 'utf8');
    const href = /<link rel="icon" type="image\/png" href="\.\/([^"]+)"/.exec(html)?.[1];
    expect(href).toBe('favicon.png');
    const { width, height } = pngSize(join('renderer/public', href as string));
    expect(width).toBe(height);
    expect(width).toBeLessThanOrEqual(64);
    expect(width).toBeGreaterThanOrEqual(32);
  });

  it('the installers still get the 1024-pixel icon', () => {
    expect(pngSize('build/icon.png')).toEqual({ width: 1024, height: 1024 });
  });
});
