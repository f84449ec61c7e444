// Where the window reopens: its saved place only while a connected display still shows it.
import { describe, expect, it } from 'vitest';
import { boundsToRestore, DEFAULT_SIZE, displayHolding } from '../../electron/shell/window-bounds';

const laptop = { x: 0, y: 25, width: 1440, height: 875 };
const external = { x: 1440, y: 0, width: 2560, height: 1415 };

describe('boundsToRestore', () => {
  it('gives the default size, placed by the OS, on first run', () => {
    expect(boundsToRestore(undefined, [laptop])).toEqual(DEFAULT_SIZE);
  });

  it('restores bounds that are on a connected display', () => {
    const saved = { x: 100, y: 80, width: 1100, height: 700 };
    expect(boundsToRestore(saved, [laptop])).toEqual(saved);
    const onExternal = { x: 2000, y: 200, width: 1600, height: 1000 };
    expect(boundsToRestore(onExternal, [laptop, external])).toEqual(onExternal);
  });

  it('falls back to the default when the display it was on is gone', () => {
    expect(boundsToRestore({ x: 2000, y: 200, width: 1600, height: 1000 }, [laptop])).toEqual(DEFAULT_SIZE);
  });

  it('falls back when only a sliver of the title bar would show, or it is above the screen', () => {
    expect(boundsToRestore({ x: 1400, y: 100, width: 1000, height: 700 }, [laptop])).toEqual(DEFAULT_SIZE);
    expect(boundsToRestore({ x: 100, y: -600, width: 1000, height: 700 }, [laptop])).toEqual(DEFAULT_SIZE);
  });

  it('shrinks a window to fit a display that became smaller', () => {
    expect(boundsToRestore({ x: 0, y: 25, width: 2400, height: 1300 }, [laptop])).toEqual({
      x: 0,
      y: 25,
      width: 1440,
      height: 875,
    });
  });

  it('ignores saved sizes below the minimum', () => {
    expect(boundsToRestore({ x: 10, y: 30, width: 50, height: 40 }, [laptop])).toEqual(DEFAULT_SIZE);
  });
});

describe('displayHolding', () => {
  it('finds the display that holds the title bar', () => {
    expect(displayHolding({ x: 1500, y: 10, width: 800, height: 600 }, [laptop, external])).toBe(external);
    expect(displayHolding({ x: 5000, y: 10, width: 800, height: 600 }, [laptop, external])).toBeUndefined();
  });
});
