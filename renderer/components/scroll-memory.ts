// Where each list was scrolled, so coming back to a screen lands where you left it. Written on
// every scroll and read only when a list mounts: nothing renders from it, so it is a plain map,
// kept for as long as the page is open.
const scrolled = new Map<string, number>();

export function rememberScroll(key: string, top: number): void {
  scrolled.set(key, top);
}

export function recallScroll(key: string): number {
  return scrolled.get(key) ?? 0;
}
