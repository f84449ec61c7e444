// One start of the history as the host starts it, for bench/history.ts: a fresh process opens the
// store on the data folder given, shows the sessions list's first page, and prints one JSON line:
// how long that took and how much memory the process holds afterwards.
import { EMBEDDED_MOCK_PROFILE_ID } from '../electron/core/profiles';
import { TranscriptStore } from '../electron/core/transcript-store';

const [folder = ''] = process.argv.slice(2);
const t0 = performance.now();
const store = new TranscriptStore(folder);
const page = await store.list(EMBEDDED_MOCK_PROFILE_ID, 'session', { limit: 50 });
const firstPageMs = performance.now() - t0;
globalThis.gc?.();
const { rss, heapUsed } = process.memoryUsage();
store.close();
process.stdout.write(`${JSON.stringify({ firstPageMs, rss, heapUsed, shown: page.summaries.length })}\n`);
