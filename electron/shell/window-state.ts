// Remembers the window's place and size in `window-state.json` in the data dir (electron-store),
// and gives them back only when they are still on a connected display (window-bounds.ts).
import { screen, type BrowserWindow } from 'electron';
import Store from 'electron-store';
import { z } from 'zod';
import { boundsToRestore, type Rect, type Size } from './window-bounds';

const Bounds = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
const SavedState = z.object({ bounds: Bounds.optional(), maximized: z.boolean().optional() });
type SavedState = z.infer<typeof SavedState>;

/** Moves and resizes come in bursts; write once they settle. */
const SAVE_DELAY_MS = 500;

export interface WindowState {
  /** Where to open: saved bounds on a connected display, else the default size. */
  initial(): { bounds: Rect | Size; maximized: boolean };
  /** Follows the window's moves, resizes and maximising, and saves them. */
  track(window: BrowserWindow): void;
}

export function openWindowState(dataDir: string, onWarning: (message: string) => void): WindowState {
  let store: Store<SavedState> | undefined;
  try {
    // Only geometry lives here: a file that does not parse is safe to start over.
    store = new Store<SavedState>({ name: 'window-state', cwd: dataDir, clearInvalidConfig: true });
  } catch (error) {
    onWarning(`The window's size and place will not be remembered: ${(error as Error).message}`);
  }
  const read = (): SavedState => {
    const parsed = SavedState.safeParse(store?.store ?? {});
    return parsed.success ? parsed.data : {};
  };
  const write = (state: SavedState): void => {
    try {
      store?.set(state);
    } catch (error) {
      onWarning(`Could not remember the window's size and place: ${(error as Error).message}`);
      store = undefined;
    }
  };
  return {
    initial() {
      const saved = read();
      const workAreas = screen.getAllDisplays().map((d) => d.workArea);
      return { bounds: boundsToRestore(saved.bounds, workAreas), maximized: saved.maximized === true };
    },
    track(window) {
      let timer: NodeJS.Timeout | undefined;
      const save = (): void => {
        if (timer) clearTimeout(timer);
        timer = undefined;
        if (window.isDestroyed() || window.isMinimized() || window.isFullScreen()) return;
        // The normal bounds, so a maximised window comes back maximised over its old place.
        const { x, y, width, height } = window.getNormalBounds();
        write({ bounds: { x, y, width, height }, maximized: window.isMaximized() });
      };
      const later = (): void => {
        if (timer) clearTimeout(timer);
        timer = setTimeout(save, SAVE_DELAY_MS);
      };
      window.on('resize', later);
      window.on('move', later);
      window.on('maximize', save);
      window.on('unmaximize', save);
      window.on('close', save);
    },
  };
}
