// The API's thread list takes no parameters: filtering and ordering happen here.
import type { ReceivedThread as Thread } from '../../../shared/received';

/** Threads of an agent whose title contains the text (any case), latest activity first. */
export function visibleThreads(
  threads: readonly Thread[],
  agent: string | undefined,
  title: string,
): Thread[] {
  const needle = title.trim().toLowerCase();
  // Timestamps are parsed once each, not per comparison, and compared as instants (offsets may differ).
  return threads
    .filter((t) => (!agent || t.agent === agent) && (!needle || t.title.toLowerCase().includes(needle)))
    .map((t) => ({ t, at: Date.parse(t.updated_at) || 0 }))
    .sort((a, b) => b.at - a.at || a.t.id.localeCompare(b.t.id))
    .map(({ t }) => t);
}
