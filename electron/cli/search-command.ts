// `agent-console search "refund 4711"`: every recorded message, reply and error text that matches,
// newest first — the same search as the app's search box (`core.transcripts.search`), over every
// profile's history unless --profile names one. Words match anywhere, "a phrase" in order, and
// refu* as a prefix; nothing the user types is query syntax (docs/architecture.md, "The history
// database").
import type { SearchHit } from '../../shared/transcript';
import type { CommandContext } from './cli-session';
import { UsageError } from './output';

const RELATIVE = /^(\d{1,6})([mhd])$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** "7d", "24h", "30m" before now, or a date or time ("2026-01-15", ISO 8601) as an ISO time. */
export function timeOption(name: string, value: string, now = Date.now()): string {
  const relative = RELATIVE.exec(value.trim());
  if (relative) {
    const ms = Number(relative[1]) * UNIT_MS[relative[2] as keyof typeof UNIT_MS];
    return new Date(now - ms).toISOString();
  }
  const at = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value.trim()) || Number.isNaN(at)) {
    throw new UsageError(`--${name} takes a date (2026-01-15), a time (ISO 8601) or an age (7d, 24h, 30m).`);
  }
  return new Date(at).toISOString();
}

function line(hit: SearchHit, profileName: string): string {
  const when = hit.at.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, 'Z');
  const text = hit.snippet.map((p) => (p.match ? `«${p.text}»` : p.text)).join('');
  const where = `${profileName} · ${hit.kind} ${hit.id} · ${hit.agent} · #${hit.index + 1} ${hit.role}`;
  return `${when}  ${where}${hit.status === 'complete' ? '' : ` (${hit.status})`}\n    ${text.replace(/\s+/g, ' ')}`;
}

export async function searchCommand(context: CommandContext, words: string[]): Promise<void> {
  const text = words.join(' ').trim();
  if (!text) throw new UsageError('Say what to search for: `agent-console search "refund 4711"`.');
  const options = context.options as {
    agent?: string;
    since?: string;
    until?: string;
    errors?: boolean;
    limit?: string;
  };
  const limit = options.limit === undefined ? 50 : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new UsageError('--limit takes a whole number from 1 to 1000.');
  const named = context.globals.profile;
  // The history needs no service; a named profile is found as every command finds it (the
  // built-in Embedded mock's included, which exists only with its mock).
  const core = await context.openCore(named === undefined ? { embeddedMock: 'none' } : {});
  const profile = named === undefined ? undefined : core.profile(named);
  const results = core.transcripts.search({
    text,
    profileId: profile?.id,
    agent: options.agent,
    since: options.since === undefined ? undefined : timeOption('since', options.since),
    until: options.until === undefined ? undefined : timeOption('until', options.until),
    hasError: options.errors === true,
    limit,
  });
  if (context.globals.json) {
    context.io.out(JSON.stringify(results, null, 2));
    return;
  }
  if (results.hits.length === 0) {
    context.io.out('No recorded message matches.');
    return;
  }
  const names = new Map(core.profiles.list().map((p) => [p.id, p.name]));
  for (const hit of results.hits) context.io.out(line(hit, names.get(hit.profileId) ?? hit.profileId));
  if (results.more)
    context.io.out(`… more match: narrow the search, or --limit ${Math.min(limit * 4, 1000)}.`);
}
