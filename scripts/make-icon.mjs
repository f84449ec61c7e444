// Draws build/icon.png, the installers' app icon (electron-builder makes the .icns and .ico from
// it): a rounded dark square with a console prompt and the tray's health dot. 1024×1024 RGBA, no
// image tools needed. Also the same drawing at 64×64 for the renderer's favicon: the browser
// decodes a favicon on every load, and the 1024 one cost each start of the web host's page ~50 ms
// of CPU (issue 18). Run `node scripts/make-icon.mjs` after changing it; the PNGs are committed.
import { Buffer } from 'node:buffer';
import { mkdirSync, writeFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';

/** The drawing's own size: shapes are placed in a 1024×1024 square and drawn at any size. */
const SIZE = 1024;

function chunk(type, data) {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * Coverage (0..1) of the pixel at x, y by each shape, anti-aliased over one output pixel (`aa` units
 * of the drawing).
 */
const clamp = (v) => Math.min(1, Math.max(0, v));
const edge = (inside, aa) => clamp(inside / aa + 0.5);
function roundedSquare(x, y, inset, radius, aa) {
  const half = SIZE / 2 - inset;
  const dx = Math.max(Math.abs(x - SIZE / 2) - (half - radius), 0);
  const dy = Math.max(Math.abs(y - SIZE / 2) - (half - radius), 0);
  return edge(radius - Math.hypot(dx, dy), aa);
}
function segment(x, y, ax, ay, bx, by, width, aa) {
  const t = clamp(((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2));
  return edge(width / 2 - Math.hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay))), aa);
}
const disc = (x, y, cx, cy, r, aa) => edge(r - Math.hypot(x - cx, y - cy), aa);

/** The icon as a PNG of `size`×`size` pixels. */
function png(size) {
  const aa = SIZE / size;
  const raw = Buffer.alloc(size * (1 + size * 4));
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const px = (x + 0.5) * aa;
      const py = (y + 0.5) * aa;
      const background = roundedSquare(px, py, 64, 180, aa);
      const prompt = Math.max(
        segment(px, py, 300, 360, 480, 512, 72, aa),
        segment(px, py, 480, 512, 300, 664, 72, aa),
        segment(px, py, 540, 664, 700, 664, 72, aa),
      );
      const dot = disc(px, py, 760, 300, 70, aa);
      let rgb = [0x1b, 0x1b, 0x1f];
      const mix = (colour, amount) => rgb.map((c, i) => c + (colour[i] - c) * amount);
      rgb = mix([0xf2, 0xf2, 0xf5], prompt);
      rgb = mix([0x2e, 0xa0, 0x43], dot);
      const at = y * (1 + size * 4) + 1 + x * 4;
      raw[at] = Math.round(rgb[0]);
      raw[at + 1] = Math.round(rgb[1]);
      raw[at + 2] = Math.round(rgb[2]);
      raw[at + 3] = Math.round(background * 255);
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
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

mkdirSync('build', { recursive: true });
writeFileSync('build/icon.png', png(SIZE));
// 64 pixels: a 32-pixel tab icon on a 2× screen.
writeFileSync('renderer/public/favicon.png', png(64));
console.log('wrote build/icon.png and renderer/public/favicon.png');
