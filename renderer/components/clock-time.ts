// The time of day as the user's locale writes it ("3:14:22 PM"), from one formatter.
//
// A page's first date formatter loads the locale's data: the first `toLocaleTimeString()` took
// 23–32 ms in Chromium here, and a message's first Send (which shows the message's time) paid it
// inside the click, most of a 50–60 ms task. The formatter is made when the browser is
// next idle once the first screen has its data (`prepareClockTime`, asked by the shell), or at its
// first use if that is sooner. Apart from time-format.ts, whose formatters are made at import: the
// playground's chunk does not load them.
let formatter: Intl.DateTimeFormat | undefined;

const clock = (): Intl.DateTimeFormat =>
  (formatter ??= new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' }));

/** "3:14:22 PM": the local time of day of `ms`, as `Date#toLocaleTimeString()` writes it. */
export function clockTime(ms: number): string {
  return clock().format(ms);
}

/** Makes the formatter when the page is idle (at most `withinMs` from now), not during a click. */
export function prepareClockTime(withinMs = 3_000): void {
  if (formatter) return;
  if (typeof requestIdleCallback === 'function') requestIdleCallback(clock, { timeout: withinMs });
  else setTimeout(clock, withinMs);
}
