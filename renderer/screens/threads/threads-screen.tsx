// The Threads browser: every thread (the API lists them all at once), filtered by agent and title
// and ordered by last activity here; create one, open one to read what is known and continue it,
// export its known history, or replay it against another agent.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import '../../components/browsers.css';
import { refreshThreads, threadsQuery } from '../../data/threads';
import { transcriptHeadQuery, transcriptQuery, useKnownTranscripts } from '../../data/transcripts';
import { AgentFilter } from '../../browsers/agent-filter';
import { BrowseList } from '../../components/browse-list';
import { RefreshButton } from '../../components/list-states';
import { OpenById } from '../../browsers/open-by-id';
import { ReplayPanel } from '../../browsers/replay-panel';
import { useReplay } from '../../stores/replay';
import { useThreadsView, type ThreadRow } from '../../stores/threads-view';
import { threadColumns } from './thread-columns';
import { ThreadCreateForm } from './thread-create-form';
import { ThreadDetail } from './thread-detail';
import { visibleThreads } from './thread-filter';
import { useActiveProfileId } from '../../data/profiles';
import { ScreenHeading } from '../../shell/screen-heading';

function ReplayForThread() {
  const profile = useActiveProfileId();
  const source = useReplay((s) => s.source);
  const id = source?.kind === 'thread' ? source.id : undefined;
  const transcript = useQuery({ ...transcriptQuery(profile, 'thread', id ?? ''), enabled: id !== undefined });
  return id && transcript.data ? <ReplayPanel transcript={transcript.data} /> : null;
}

export function ThreadsScreen() {
  const profile = useActiveProfileId();
  const agent = useThreadsView((s) => s.agent);
  const title = useThreadsView((s) => s.title);
  const selectedId = useThreadsView((s) => s.selectedId);
  const selectedRow = useThreadsView((s) => s.selectedRow);
  const creating = useThreadsView((s) => s.creating);
  const query = useQuery(threadsQuery(profile));
  const threadIds = useMemo(() => (query.data ?? []).map((t) => t.id), [query.data]);
  const known = useKnownTranscripts('thread', threadIds);
  const rows = useMemo(() => visibleThreads(query.data ?? [], agent, title), [query.data, agent, title]);
  const columns = useMemo(() => threadColumns(known), [known]);
  const listedRow = selectedId ? query.data?.find((t) => t.id === selectedId) : undefined;
  const localOnly = useQuery({
    ...transcriptHeadQuery(profile, 'thread', selectedId ?? ''),
    enabled: selectedId !== undefined && !listedRow && selectedRow?.id !== selectedId,
  }).data;
  // Listed, else as opened (just created, or found by id), else what the local record says.
  const selected: ThreadRow | undefined =
    listedRow ??
    (selectedRow?.id === selectedId ? selectedRow : undefined) ??
    (localOnly && selectedId
      ? {
          id: selectedId,
          title: localOnly.title ?? '',
          agent: localOnly.agent,
          message_count: localOnly.total,
          created_at: localOnly.createdAt,
        }
      : undefined);
  const filtered = (query.data?.length ?? 0) - rows.length;

  return (
    <section className="screen browse">
      <div className="screen-head">
        <ScreenHeading>Threads</ScreenHeading>
        <OpenById />
      </div>
      <div className="toolbar">
        <AgentFilter value={agent} onChange={(next) => useThreadsView.setState({ agent: next })} />
        <label className="inline-field">
          <span>Title</span>
          <input
            type="search"
            aria-label="Filter by title"
            placeholder="Contains…"
            value={title}
            onChange={(event) => useThreadsView.setState({ title: event.target.value })}
          />
        </label>
        <button
          type="button"
          onClick={() => useThreadsView.setState({ creating: !creating })}
          aria-expanded={creating}
        >
          New thread
        </button>
        <RefreshButton
          fetching={query.isFetching}
          updatedAt={query.dataUpdatedAt}
          onRefresh={() => refreshThreads(profile)}
        />
      </div>
      {creating ? <ThreadCreateForm /> : null}
      <div className={selected ? 'browse-split' : undefined}>
        <BrowseList
          label="Threads"
          noun="threads"
          rows={rows}
          columns={columns}
          rowKey={(t) => t.id}
          selectedKey={selectedId}
          onSelect={(t) => useThreadsView.setState({ selectedId: t.id, selectedRow: t })}
          compact={selected !== undefined}
          scrollKey="threads"
          resetKey={`${agent}:${title}`}
          query={query}
          loaded={query.data !== undefined}
          empty={
            filtered > 0
              ? `None of the ${query.data?.length} threads match the filter.`
              : 'No threads yet. Create one with “New thread”.'
          }
        >
          <p className="muted browse-footnote" data-testid="threads-count">
            {query.data
              ? `${rows.length} thread${rows.length === 1 ? '' : 's'}${filtered > 0 ? ` (${filtered} hidden by the filter)` : ''}, latest activity first.`
              : ''}
          </p>
        </BrowseList>
        {selected ? <ThreadDetail thread={selected} listed={listedRow !== undefined} /> : null}
      </div>
      <ReplayForThread />
    </section>
  );
}
