// The Conversations browser: filter by agent, page through with the service's total (or load every
// page), sort what is loaded, open one to see every field and what this console knows of its
// history, continue or replay it, and export the filter's rows.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import '../../components/browsers.css';
import {
  allConversationsQuery,
  conversationsPageQuery,
  refreshConversations,
} from '../../data/conversations';
import { transcriptQuery, useKnownTranscripts } from '../../data/transcripts';
import { AgentFilter } from '../../browsers/agent-filter';
import { BrowseList } from '../../components/browse-list';
import { RefreshButton } from '../../components/list-states';
import { OpenById } from '../../browsers/open-by-id';
import { Pager } from '../../components/pager';
import { ReplayPanel } from '../../browsers/replay-panel';
import { CONVERSATION_PAGE_SIZES, useConversationsView } from '../../stores/conversations-view';
import { useReplay } from '../../stores/replay';
import { conversationColumns } from './conversation-columns';
import { ConversationDetail } from './conversation-detail';
import { ConversationExportBar, LoadProgress } from './conversation-export-bar';
import { sortConversations } from './conversation-sort';
import { useActiveProfileId } from '../../data/profiles';
import { ScreenHeading } from '../../shell/screen-heading';

function useConversationRows() {
  const profile = useActiveProfileId();
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
  const profile = useActiveProfileId();
  const source = useReplay((s) => s.source);
  const id = source?.kind === 'session' ? source.id : undefined;
  const transcript = useQuery({
    ...transcriptQuery(profile, 'session', id ?? ''),
    enabled: id !== undefined,
  });
  return id && transcript.data ? <ReplayPanel transcript={transcript.data} /> : null;
}

export function ConversationsScreen() {
  const profile = useActiveProfileId();
  const { agent, limit, offset, sort, selected } = useConversationsView();
  const { query, rows, total } = useConversationRows();
  const sessionIds = useMemo(() => (rows ?? []).map((r) => r.session_id), [rows]);
  const known = useKnownTranscripts('session', sessionIds);
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
        <ScreenHeading>Conversations</ScreenHeading>
        <OpenById />
      </div>
      <div className="toolbar">
        <AgentFilter
          value={agent}
          onChange={(next) => useConversationsView.setState({ agent: next, offset: 0 })}
        />
        <ConversationExportBar />
        <RefreshButton
          fetching={query.isFetching}
          updatedAt={query.dataUpdatedAt}
          onRefresh={() => refreshConversations(profile)}
        />
      </div>
      <LoadProgress />
      <div className={selection ? 'browse-split' : undefined}>
        <BrowseList
          label="Conversations"
          noun="conversations"
          rows={sorted}
          columns={columns}
          rowKey={(c) => c.id}
          selectedKey={selection?.row?.id}
          onSelect={(c) => useConversationsView.setState({ selected: { sessionId: c.session_id, row: c } })}
          compact={selection !== undefined}
          scrollKey="conversations"
          resetKey={`${agent}:${limit}:${offset}`}
          query={query}
          loaded={rows !== undefined}
          empty={
            agent
              ? `No conversations with ${agent}. Conversations appear once someone chats with a session id.`
              : 'No conversations yet. They appear once someone chats with a session id.'
          }
        >
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
        </BrowseList>
        {selection ? <ConversationDetail selection={selection} /> : null}
      </div>
      <ReplayForSession />
    </section>
  );
}
