// The tray's health dot is a real PNG of the asked size and colour.
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { dotPng, HEALTH_COLOURS } from '../../electron/shell/tray-icon';

function decode(png: Buffer): { width: number; height: number; rgba: (x: number, y: number) => number[] } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const idatLength = png.readUInt32BE(33);
  expect(png.toString('ascii', 37, 41)).toBe('IDAT');
  const raw = inflateSync(png.subarray(41, 41 + idatLength));
  const rgba = (x: number, y: number) => [
    ...raw.subarray(y * (1 + width * 4) + 1 + x * 4, y * (1 + width * 4) + 5 + x * 4),
  ];
  return { width, height, rgba };
}

describe('dotPng', () => {
  it('draws a dot of the health colour, transparent in the corners', () => {
    for (const size of [16, 32]) {
      const image = decode(dotPng(size, HEALTH_COLOURS.healthy));
      expect([image.width, image.height]).toEqual([size, size]);
      expect(image.rgba(size / 2, size / 2)).toEqual([...HEALTH_COLOURS.healthy, 255]);
      expect(image.rgba(0, 0)[3]).toBe(0);
    }
  });

  it('has a colour for every health, grey while unknown', () => {
    expect(Object.keys(HEALTH_COLOURS).sort()).toEqual(['degraded', 'healthy', 'unhealthy', 'unknown']);
    const [r, g, b] = HEALTH_COLOURS.unknown;
    expect(r === g && g === b).toBe(true);
  });
});
