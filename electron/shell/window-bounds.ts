// Where the window opens: the saved place if it is still on a connected display, else the default
// size centred by the OS. Plain geometry (no `electron` import) so it is unit-tested anywhere.

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Size {
  width: number;
  height: number;
}

export const DEFAULT_SIZE: Size = { width: 1280, height: 820 };
export const MIN_SIZE: Size = { width: 720, height: 480 };

/** How much of the title bar must be on a display for the user to grab it and move the window. */
const GRAB_WIDTH = 100;
const GRAB_HEIGHT = 24;

function overlap(a0: number, a1: number, b0: number, b1: number): number {
  return Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
}

/** The work area holding enough of the window's top strip to drag it, if any. */
export function displayHolding(bounds: Rect, workAreas: readonly Rect[]): Rect | undefined {
  const strip = {
    x: bounds.x,
    y: bounds.y,
    width: bounds.width,
    height: Math.min(GRAB_HEIGHT, bounds.height),
  };
  return workAreas.find(
    (area) =>
      overlap(strip.x, strip.x + strip.width, area.x, area.x + area.width) >=
        Math.min(GRAB_WIDTH, strip.width) &&
      overlap(strip.y, strip.y + strip.height, area.y, area.y + area.height) >= strip.height,
  );
}

/**
 * The bounds to open with: the saved ones when a connected display still shows their title bar
 * (shrunk to fit that display if it became smaller); otherwise the default size, placed by the OS.
 */
export function boundsToRestore(saved: Rect | undefined, workAreas: readonly Rect[]): Rect | Size {
  if (!saved || saved.width < MIN_SIZE.width || saved.height < MIN_SIZE.height) return { ...DEFAULT_SIZE };
  const area = displayHolding(saved, workAreas);
  if (!area) return { ...DEFAULT_SIZE };
  return {
    x: saved.x,
    y: saved.y,
    width: Math.min(saved.width, area.width),
    height: Math.min(saved.height, area.height),
  };
}
