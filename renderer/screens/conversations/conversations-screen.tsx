// The Conversations browser: filter by agent, page through with the service's total (or load every
// page), sort what is loaded, open one to see every field and what this console knows of its
// history, continue or replay it, and export the filter's rows.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import '../../components/browsers.css';
import {
  allConversationsQuery,
  conversationsPageQuery,
  transcriptQuery,
  useAllAgents,
  useKnownTranscripts,
  useProfileId,
} from '../../components/browse-queries';
import { ListPlaceholder, RefreshButton } from '../../components/list-states';
import { OpenById } from '../../components/open-by-id';
import { Pager } from '../../components/pager';
import { ReplayPanel } from '../../components/replay-panel';
import { VirtualTable } from '../../components/virtual-table';
import { CONVERSATION_PAGE_SIZES, useConversationsView } from '../../stores/conversations-view';
import { useReplay } from '../../stores/replay';
import { conversationColumns } from './conversation-columns';
import { ConversationDetail } from './conversation-detail';
import { ConversationExportBar, LoadProgress } from './conversation-export-bar';
import { sortConversations } from './conversation-sort';

function useConversationRows() {
  const profile = useProfileId();
  const { agent, limit, offset } = useConversationsView();
  const all = limit === 'all';
  const paged = useQuery({
    ...conversationsPageQuery(profile, agent, all ? 20 : limit, offset),
    enabled: !all,
  });
  const every = useQuery({ ...allConversationsQuery(profile, agent), enabled: all });
  const query = all ? every : paged;
  const rows = all ? every.data : paged.data?.conversations;
  const total = all ? every.data?.length : paged.data?.total;
  return { query, rows, total };
}

function ReplayForSession() {
  const profile = useProfileId();
  const source = useReplay((s) => s.source);
  const id = source?.kind === 'session' ? source.id : undefined;
  const transcript = useQuery({
    ...transcriptQuery(profile, 'session', id ?? ''),
    enabled: id !== undefined,
  });
  return id && transcript.data ? <ReplayPanel transcript={transcript.data} /> : null;
}

export function ConversationsScreen() {
  const client = useQueryClient();
  const profile = useProfileId();
  const { agent, limit, offset, sort, selected } = useConversationsView();
  const agents = useAllAgents();
  const known = useKnownTranscripts('session');
  const { query, rows, total } = useConversationRows();
  const sorted = useMemo(() => sortConversations(rows ?? [], sort), [rows, sort]);
  const columns = useMemo(() => conversationColumns(sort, known), [sort, known]);
  // The open conversation as the latest list has it, else as it was when opened.
  const selection = selected && {
    ...selected,
    row: rows?.find((r) => r.session_id === selected.sessionId) ?? selected.row,
  };

  return (
    <section className="screen browse">
      <div className="screen-head">
        <h2>Conversations</h2>
        <OpenById />
      </div>
      <div className="toolbar">
        <label className="inline-field">
          <span>Agent</span>
          <select
            aria-label="Filter by agent"
            value={agent ?? ''}
            onChange={(event) =>
              useConversationsView.setState({ agent: event.target.value || undefined, offset: 0 })
            }
          >
            <option value="">All agents</option>
            {agent && !agents.data?.some((a) => a.slug === agent) ? (
              <option value={agent}>{agent}</option>
            ) : null}
            {(agents.data ?? []).map((a) => (
              <option key={a.agent_id} value={a.slug}>
                {a.name} ({a.slug})
              </option>
            ))}
          </select>
        </label>
        <ConversationExportBar />
        <RefreshButton
          fetching={query.isFetching}
          updatedAt={query.dataUpdatedAt}
          onRefresh={() => {
            void client.invalidateQueries({ queryKey: ['conversations', profile] });
            void client.invalidateQueries({ queryKey: ['transcripts', profile] });
          }}
        />
      </div>
      <LoadProgress />
      <div className={selection ? 'browse-split' : undefined}>
        <div className="browse-list">
          <VirtualTable
            label="Conversations"
            rows={sorted}
            columns={columns}
            rowKey={(c) => c.id}
            selectedKey={selection?.row?.id}
            onSelect={(c) => useConversationsView.setState({ selected: { sessionId: c.session_id, row: c } })}
            compact={selection !== undefined}
            scrollKey="conversations"
            resetKey={`${agent}:${limit}:${offset}`}
            placeholder={
              <ListPlaceholder
                loading={query.isPending}
                error={query.error}
                noun="conversations"
                empty={
                  agent
                    ? `No conversations with ${agent}. Conversations appear once someone chats with a session id.`
                    : 'No conversations yet. They appear once someone chats with a session id.'
                }
                onRetry={() => void query.refetch()}
              />
            }
          />
          {query.error && rows ? (
            <ListPlaceholder
              loading={false}
              error={query.error}
              noun="conversations"
              empty=""
              onRetry={() => void query.refetch()}
            />
          ) : null}
          <Pager
            label="Conversations pages"
            offset={limit === 'all' ? 0 : offset}
            limit={limit}
            sizes={CONVERSATION_PAGE_SIZES}
            count={rows?.length ?? 0}
            total={total}
            busy={query.isFetching}
            onOffset={(next) => useConversationsView.setState({ offset: next })}
            onLimit={(next) => useConversationsView.setState({ limit: next, offset: 0 })}
          />
          {sort ? (
            <p className="muted browse-footnote">
              Sorted within the {rows?.length ?? 0} loaded rows; the service lists newest first.
            </p>
          ) : null}
        </div>
        {selection ? <ConversationDetail selection={selection} /> : null}
      </div>
      <ReplayForSession />
    </section>
  );
}
