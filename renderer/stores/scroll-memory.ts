// Where each list was scrolled, so coming back to a screen lands where you left it. Written on
// every scroll and read only when a list mounts: nothing subscribes, so scrolling renders nothing.
import { create } from 'zustand';

const useScrollMemory = create<Record<string, number>>(() => ({}));

export function rememberScroll(key: string, top: number): void {
  useScrollMemory.setState({ [key]: top });
}

export function recallScroll(key: string): number {
  return useScrollMemory.getState()[key] ?? 0;
}
