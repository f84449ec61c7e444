// Draws build/icon.png, the installers' app icon (electron-builder makes the .icns and .ico from
// it): a rounded dark square with a console prompt and the tray's health dot. 1024×1024 RGBA, no
// image tools needed. Also the same drawing at 64×64 for the renderer's favicon: the browser
// decodes a favicon on every load, and the 1024 one cost each start of the web host's page ~50 ms
// of CPU. `npx tsx scripts/make-icon.ts` after changing it; the PNGs are committed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { rgbaPng } from '../electron/shell/png';

/** The drawing's own size: shapes are placed in a 1024×1024 square and drawn at any size. */
const SIZE = 1024;

type Rgb = readonly [number, number, number];

/**
 * Coverage (0..1) of the pixel at x, y by each shape, anti-aliased over one output pixel (`aa` units
 * of the drawing).
 */
const clamp = (v: number) => Math.min(1, Math.max(0, v));
const edge = (inside: number, aa: number) => clamp(inside / aa + 0.5);
function roundedSquare(x: number, y: number, inset: number, radius: number, aa: number): number {
  const half = SIZE / 2 - inset;
  const dx = Math.max(Math.abs(x - SIZE / 2) - (half - radius), 0);
  const dy = Math.max(Math.abs(y - SIZE / 2) - (half - radius), 0);
  return edge(radius - Math.hypot(dx, dy), aa);
}
function segment(x: number, y: number, a: [number, number], b: [number, number], width: number, aa: number) {
  const [ax, ay] = a;
  const [bx, by] = b;
  const t = clamp(((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2));
  return edge(width / 2 - Math.hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay))), aa);
}
const disc = (x: number, y: number, cx: number, cy: number, r: number, aa: number) =>
  edge(r - Math.hypot(x - cx, y - cy), aa);

const mix = (from: Rgb, to: Rgb, amount: number): Rgb => [
  from[0] + (to[0] - from[0]) * amount,
  from[1] + (to[1] - from[1]) * amount,
  from[2] + (to[2] - from[2]) * amount,
];

/** The icon as a PNG of `size`×`size` pixels. */
function icon(size: number): Buffer {
  const aa = SIZE / size;
  return rgbaPng(
    size,
    (x, y) => {
      const px = (x + 0.5) * aa;
      const py = (y + 0.5) * aa;
      const prompt = Math.max(
        segment(px, py, [300, 360], [480, 512], 72, aa),
        segment(px, py, [480, 512], [300, 664], 72, aa),
        segment(px, py, [540, 664], [700, 664], 72, aa),
      );
      const dot = disc(px, py, 760, 300, 70, aa);
      const rgb = mix(mix([0x1b, 0x1b, 0x1f], [0xf2, 0xf2, 0xf5], prompt), [0x2e, 0xa0, 0x43], dot);
      return [...rgb, roundedSquare(px, py, 64, 180, aa) * 255];
    },
    9,
  );
}

mkdirSync('build', { recursive: true });
writeFileSync('build/icon.png', icon(SIZE));
// 64 pixels: a 32-pixel tab icon on a 2× screen.
writeFileSync('renderer/public/favicon.png', icon(64));
console.log('wrote build/icon.png and renderer/public/favicon.png');
