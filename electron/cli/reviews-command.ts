// `agent-console reviews export`: the reviews support staff made in the app (labels, verdicts and
// notes on recorded conversations, threads and replies) as CSV or JSON on stdout — the same file as
// the Reviews screen's Export (`core.transcripts.reviews.export`), each row with the ids of what it
// is about and the in-app link back to it (docs/architecture.md, "Reviews"). Every profile's
// reviews unless --profile names one.
import type { CommandContext } from './cli-session';
import { UsageError } from './output';
import { timeOption } from './search-command';

export async function reviewsExportCommand(context: CommandContext): Promise<void> {
  const options = context.options as { format?: string; label?: string; since?: string };
  const format = options.format ?? 'csv';
  if (format !== 'csv' && format !== 'json') throw new UsageError('--format takes csv or json.');
  const since = options.since === undefined ? undefined : timeOption('since', options.since);
  const named = context.globals.profile;
  // The history needs no service (as `search`): a named profile is found as every command finds it.
  const core = await context.openCore(named === undefined ? { embeddedMock: 'none' } : {});
  const profileId = named === undefined ? undefined : core.profile(named).id;
  const { text } = core.transcripts.reviews.export({ profileId, label: options.label, since }, format);
  // The terminal guard shows a carriage return as an escape: CSV lines end with LF here.
  context.io.out((format === 'csv' ? text.replaceAll('\r\n', '\n') : text).trimEnd());
}
