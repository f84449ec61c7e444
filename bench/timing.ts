// Timing starts on this machine for `npm run bench`: a median, how many starts each start figure
// takes it of, the CPU every process of the machine has used, and waiting for the machine to be
// quiet before a start is timed.
import { readFileSync } from 'node:fs';

/** How many starts each start figure is the median of. */
export const START_RUNS = 7;

export function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
}

/**
 * CPU time all the machine's processes have used so far (Linux's /proc/stat, in USER_HZ ticks of
 * 10 ms), ms; undefined where there is no /proc/stat. Over a start it says how busy both cores were:
 * a start that keeps them busy throughout is bound by CPU, not by waiting.
 */
export function machineCpuMs(): number | undefined {
  try {
    const [, ...ticks] = (readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] as string).trim().split(/\s+/);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = ticks.map(Number);
    return (user + nice + system + irq + softirq + steal) * 10;
  } catch {
    return undefined;
  }
}

const QUIET_WINDOW_MS = 100;
/** Under this much CPU in a window (all processes, all cores), the machine counts as quiet. */
const QUIET_CPU_MS = 20;
export const QUIET_MAX_MS = 3_000;

/**
 * Waits until the machine is quiet, two windows in a row, or QUIET_MAX_MS; says whether it was.
 * A tab is not done starting when Playwright's newPage() returns: Chromium goes on with it for about
 * half a second, measured here at 0.8–0.9 s of CPU, both cores busy. An open tab in a user's browser
 * has long finished that; a start timed meanwhile shared the cores with it.
 */
export async function machineQuiet(): Promise<boolean> {
  const until = performance.now() + QUIET_MAX_MS;
  let quietWindows = 0;
  let before = machineCpuMs();
  if (before === undefined) return false;
  while (performance.now() < until) {
    await new Promise((done) => setTimeout(done, QUIET_WINDOW_MS));
    const now = machineCpuMs() as number;
    quietWindows = now - before < QUIET_CPU_MS ? quietWindows + 1 : 0;
    if (quietWindows === 2) return true;
    before = now;
  }
  return false;
}
