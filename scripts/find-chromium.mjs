// The Chromium the browser tests drive: CHROMIUM_PATH, else the system's, else Playwright's own.
import { existsSync } from 'node:fs';

const SYSTEM = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

export async function findChromium() {
  if (process.env.CHROMIUM_PATH) {
    return existsSync(process.env.CHROMIUM_PATH) ? process.env.CHROMIUM_PATH : undefined;
  }
  const system = SYSTEM.find((p) => existsSync(p));
  if (system) return system;
  try {
    const { chromium } = await import('@playwright/test');
    const own = chromium.executablePath();
    return existsSync(own) ? own : undefined;
  } catch {
    return undefined;
  }
}

export const CHROMIUM_HINT =
  'No Chromium found: install one (Debian/Ubuntu: `sudo apt-get install chromium`; elsewhere: `npx playwright install chromium`) or set CHROMIUM_PATH.';
