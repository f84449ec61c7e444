// RGBA PNGs drawn in code: the tray's health dot (tray-icon.ts) and the app's icons
// (scripts/make-icon.ts). Node's zlib gives the deflate and the CRC; no `electron` import, so both
// run and are tested anywhere.
import { crc32, deflateSync } from 'node:zlib';

export type Rgba = readonly [number, number, number, number];

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A `size`×`size` RGBA PNG: `pixel` gives each pixel's red, green, blue and alpha, 0–255 (rounded
 * here). `level` is zlib's compression level (its default when left out).
 */
export function rgbaPng(size: number, pixel: (x: number, y: number) => Rgba, level?: number): Buffer {
  // Each row starts with PNG filter type 0 (none).
  const raw = Buffer.alloc(size * (1 + size * 4));
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const at = y * (1 + size * 4) + 1 + x * 4;
      const [r, g, b, a] = pixel(x, y);
      raw[at] = Math.round(r);
      raw[at + 1] = Math.round(g);
      raw[at + 2] = Math.round(b);
      raw[at + 3] = Math.round(a);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, level === undefined ? {} : { level })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
