// The tray icon: a filled, anti-aliased dot whose colour says the service's health. Drawn here as
// a PNG (no image files to ship, any size for any pixel density) and with no `electron` import,
// so it is unit-tested anywhere; tray.ts turns it into a nativeImage.
import { deflateSync } from 'node:zlib';

export type TrayHealth = 'healthy' | 'degraded' | 'unhealthy' | 'unknown';

export const HEALTH_COLOURS: Record<TrayHealth, readonly [number, number, number]> = {
  healthy: [0x2e, 0xa0, 0x43],
  degraded: [0xe3, 0xa0, 0x08],
  unhealthy: [0xd9, 0x30, 0x25],
  unknown: [0x8a, 0x8a, 0x8a],
};

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGBA PNG of `size`×`size` pixels: a dot of `rgb` with a darker rim, transparent outside. */
export function dotPng(size: number, rgb: readonly [number, number, number]): Buffer {
  const centre = size / 2;
  const radius = size / 2 - Math.max(1, size / 16);
  const rim = Math.max(1, size / 16);
  // Each row starts with PNG filter type 0 (none).
  const raw = Buffer.alloc(size * (1 + size * 4));
  for (let y = 0; y < size; y++) {
    const row = y * (1 + size * 4);
    for (let x = 0; x < size; x++) {
      const distance = Math.hypot(x + 0.5 - centre, y + 0.5 - centre);
      const coverage = Math.min(1, Math.max(0, radius + 0.5 - distance));
      const shade = distance > radius - rim ? 0.7 : 1;
      const at = row + 1 + x * 4;
      raw[at] = Math.round(rgb[0] * shade);
      raw[at + 1] = Math.round(rgb[1] * shade);
      raw[at + 2] = Math.round(rgb[2] * shade);
      raw[at + 3] = Math.round(coverage * 255);
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
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
