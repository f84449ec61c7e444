// The tray icon: a filled, anti-aliased dot whose colour says the service's health. Drawn here as
// a PNG (no image files to ship, any size for any pixel density) and with no `electron` import,
// so it is unit-tested anywhere; tray.ts turns it into a nativeImage.
import { rgbaPng } from './png';

export type TrayHealth = 'healthy' | 'degraded' | 'unhealthy' | 'unknown';

export const HEALTH_COLOURS: Record<TrayHealth, readonly [number, number, number]> = {
  healthy: [0x2e, 0xa0, 0x43],
  degraded: [0xe3, 0xa0, 0x08],
  unhealthy: [0xd9, 0x30, 0x25],
  unknown: [0x8a, 0x8a, 0x8a],
};

/** An RGBA PNG of `size`×`size` pixels: a dot of `rgb` with a darker rim, transparent outside. */
export function dotPng(size: number, rgb: readonly [number, number, number]): Buffer {
  const centre = size / 2;
  const radius = size / 2 - Math.max(1, size / 16);
  const rim = Math.max(1, size / 16);
  return rgbaPng(size, (x, y) => {
    const distance = Math.hypot(x + 0.5 - centre, y + 0.5 - centre);
    const coverage = Math.min(1, Math.max(0, radius + 0.5 - distance));
    const shade = distance > radius - rim ? 0.7 : 1;
    return [rgb[0] * shade, rgb[1] * shade, rgb[2] * shade, coverage * 255];
  });
}
