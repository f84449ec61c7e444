// A standalone mock (`npm run mock`) announces itself in its data dir, so the app and the CLI on the
// same data dir use it instead of starting a second mock that would write the same state file.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';

const ENDPOINT_FILE = 'endpoint.json';

export const MockEndpoint = z.object({
  baseUrl: z.string(),
  caCertPath: z.string(),
  pid: z.number().int(),
  /** The demo keys; the file is private to the user (0600), like the state file beside it. */
  keys: z.record(z.string(), z.string()),
});
export type MockEndpoint = z.infer<typeof MockEndpoint>;

/**
 * Renamed into place (a reader never sees half of it) but not fsync'd: the file describes a running
 * process, which a crash that could lose the write ends too, and a reader checks that its process is
 * alive. An fsync here held the web host's start for 1–110 ms while a browser wrote to the same disk.
 */
export function announceEndpoint(dataDir: string, endpoint: MockEndpoint): void {
  writeFileAtomic.sync(join(dataDir, ENDPOINT_FILE), JSON.stringify(endpoint), { mode: 0o600, fsync: false });
}

export function withdrawEndpoint(dataDir: string): void {
  rmSync(join(dataDir, ENDPOINT_FILE), { force: true });
}

/** The running standalone mock of this data dir, if there is one (its process is alive). */
export function findRunningEndpoint(dataDir: string): MockEndpoint | undefined {
  let endpoint: MockEndpoint;
  try {
    endpoint = MockEndpoint.parse(JSON.parse(readFileSync(join(dataDir, ENDPOINT_FILE), 'utf8')));
  } catch {
    return undefined;
  }
  try {
    process.kill(endpoint.pid, 0);
    return endpoint;
  } catch {
    return undefined;
  }
}

/**
 * The mock of this data dir that another process is starting right now (it holds the folder, its
 * endpoint not yet announced): two CLI commands started at once share one mock, as they would
 * share one already running. Undefined when none is announced within `withinMs`.
 */
export async function awaitRunningEndpoint(
  dataDir: string,
  withinMs = 10_000,
): Promise<MockEndpoint | undefined> {
  const until = Date.now() + withinMs;
  for (;;) {
    const endpoint = findRunningEndpoint(dataDir);
    if (endpoint || Date.now() >= until) return endpoint;
    await new Promise((wake) => setTimeout(wake, 100));
  }
}
