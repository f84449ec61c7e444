// Export of every conversation matching the filter, as CSV or JSON. It reads every page through the
// bridge, so the core's limiter paces it; progress and the queue are shown, and it
// can be cancelled. It shares the load of every page with the "All" page size: no page twice.
import { cancelAllConversations, readAllConversations, useEveryPageProgress } from '../../data/conversations';
import { downloadText } from '../../components/download';
import { ErrorMessage } from '../../components/error-message';
import { FetchCancelled } from '../../data/fetch-all-pages';
import { useProfiles, useActiveProfileId } from '../../data/profiles';
import { useConversationsView } from '../../stores/conversations-view';
import { useRate } from '../../stores/live';
import { conversationsCsv, conversationsJson, exportFileName } from './conversation-export';

/** A load of every page newer than this is reused by an export; an older one is read again. */
const REUSE_MS = 60_000;

/** The load of every page in progress (an export or the "All" page size), whichever filter it is for. */
export function LoadProgress() {
  const progress = useEveryPageProgress((s) => s.progress);
  const queued = useRate((s) => s.state?.queued ?? 0);
  if (!progress) return null;
  const who = progress.agent ? `of ${progress.agent}` : 'of every agent';
  return (
    <div className="load-progress" role="status" aria-label="Loading every page">
      <progress max={Math.max(1, progress.pageCount)} value={progress.pagesDone} />
      <span>
        Reading every conversation {who}:{' '}
        {progress.pageCount === 0
          ? 'first page…'
          : `page ${progress.pagesDone} of ${progress.pageCount}, ${progress.fetched} of ${progress.total} conversations`}
        {queued > 0 ? ` · ${queued} request${queued === 1 ? '' : 's'} waiting for the rate limit` : ''}
      </span>
      <button type="button" className="secondary small" onClick={cancelAllConversations}>
        Cancel
      </button>
    </div>
  );
}

export function ConversationExportBar() {
  const profile = useActiveProfileId();
  const baseUrl = useProfiles().data?.find((p) => p.active)?.baseUrl;
  const agent = useConversationsView((s) => s.agent);
  const job = useConversationsView((s) => s.exportJob);
  const running = job?.state === 'running';

  async function run(format: 'csv' | 'json') {
    const set = (patch: Partial<NonNullable<typeof job>>) =>
      useConversationsView.setState(({ exportJob }) => ({
        exportJob: { ...(exportJob ?? { format, agent, state: 'running' }), ...patch },
      }));
    useConversationsView.setState({ exportJob: { format, agent, state: 'running' } });
    try {
      const rows = await readAllConversations(profile, agent, REUSE_MS);
      const exportedAt = new Date().toISOString();
      const fileName = exportFileName(agent, exportedAt, format);
      downloadText(
        fileName,
        format === 'csv'
          ? conversationsCsv(rows)
          : conversationsJson(rows, { agent, exportedAt, ...(baseUrl ? { baseUrl } : {}) }),
        format === 'csv' ? 'text/csv;charset=utf-8' : 'application/json',
      );
      set({ state: 'done', rows: rows.length, fileName });
    } catch (error) {
      set(error instanceof FetchCancelled ? { state: 'cancelled' } : { state: 'failed', error });
    }
  }

  return (
    <div className="export-bar">
      <div className="actions">
        <button type="button" className="secondary" disabled={running} onClick={() => void run('csv')}>
          Export CSV
        </button>
        <button type="button" className="secondary" disabled={running} onClick={() => void run('json')}>
          Export JSON
        </button>
        {job && job.state !== 'running' ? (
          <span className="muted" role="status" data-testid="export-status">
            {job.state === 'done'
              ? `Exported ${job.rows} conversation${job.rows === 1 ? '' : 's'} to ${job.fileName}.`
              : job.state === 'cancelled'
                ? 'Export cancelled.'
                : 'Export failed.'}
          </span>
        ) : null}
      </div>
      {job?.state === 'failed' ? (
        <ErrorMessage error={job.error} title="The export could not read every page." />
      ) : null}
    </div>
  );
}
