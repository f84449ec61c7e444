// Draws build/icon.png, the installers' app icon (electron-builder makes the .icns and .ico from
// it): a rounded dark square with a console prompt and the tray's health dot. 1024×1024 RGBA, no
// image tools needed. Run `node scripts/make-icon.mjs` after changing it; the PNG is committed.
import { Buffer } from 'node:buffer';
import { mkdirSync, writeFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';

const SIZE = 1024;

function chunk(type, data) {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** Coverage (0..1) of the pixel at x, y by each shape, anti-aliased over one pixel. */
const clamp = (v) => Math.min(1, Math.max(0, v));
function roundedSquare(x, y, inset, radius) {
  const half = SIZE / 2 - inset;
  const dx = Math.max(Math.abs(x - SIZE / 2) - (half - radius), 0);
  const dy = Math.max(Math.abs(y - SIZE / 2) - (half - radius), 0);
  return clamp(radius + 0.5 - Math.hypot(dx, dy));
}
function segment(x, y, ax, ay, bx, by, width) {
  const t = clamp(((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2));
  return clamp(width / 2 + 0.5 - Math.hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay))));
}
const disc = (x, y, cx, cy, r) => clamp(r + 0.5 - Math.hypot(x - cx, y - cy));

const raw = Buffer.alloc(SIZE * (1 + SIZE * 4));
for (let y = 0; y < SIZE; y++) {
  for (let x = 0; x < SIZE; x++) {
    const px = x + 0.5;
    const py = y + 0.5;
    const background = roundedSquare(px, py, 64, 180);
    const prompt = Math.max(
      segment(px, py, 300, 360, 480, 512, 72),
      segment(px, py, 480, 512, 300, 664, 72),
      segment(px, py, 540, 664, 700, 664, 72),
    );
    const dot = disc(px, py, 760, 300, 70);
    let rgb = [0x1b, 0x1b, 0x1f];
    const mix = (colour, amount) => rgb.map((c, i) => c + (colour[i] - c) * amount);
    rgb = mix([0xf2, 0xf2, 0xf5], prompt);
    rgb = mix([0x2e, 0xa0, 0x43], dot);
    const at = y * (1 + SIZE * 4) + 1 + x * 4;
    raw[at] = Math.round(rgb[0]);
    raw[at + 1] = Math.round(rgb[1]);
    raw[at + 2] = Math.round(rgb[2]);
    raw[at + 3] = Math.round(background * 255);
  }
}
const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header[8] = 8; // bits per channel
header[9] = 6; // RGBA
mkdirSync('build', { recursive: true });
writeFileSync(
  'build/icon.png',
  Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]),
);
console.log('wrote build/icon.png');
