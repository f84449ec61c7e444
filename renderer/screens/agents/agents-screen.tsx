// The Agents browser: the service's agents a page at a time (limit/offset; total and has_more drive
// the pager), searchable by name or slug within the page, each openable in the playground.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ReceivedAgent as Agent } from '../../../shared/received';
import '../../components/browsers.css';
import { agentsPageQuery, refreshAgents } from '../../data/agents';
import { BrowseList } from '../../components/browse-list';
import { RefreshButton } from '../../components/list-states';
import { OpenById } from '../../browsers/open-by-id';
import { Pager } from '../../components/pager';
import { RelativeTime } from '../../components/relative-time';
import type { Column } from '../../components/virtual-table';
import { AGENT_PAGE_SIZES, useAgentsView } from '../../stores/agents-view';
import { openInPlayground } from '../../stores/playground-intent';
import { AgentDetail } from './agent-detail';
import { AgentStatusBadge, ModelName } from './agent-status';
import { useActiveProfileId } from '../../data/profiles';
import { ScreenHeading } from '../../shell/screen-heading';

const COLUMNS: Column<Agent>[] = [
  {
    key: 'name',
    header: 'Agent',
    width: '24%',
    compactWidth: '50%',
    cell: (a) => (
      <>
        <span className="cell-strong" title={`${a.name} (${a.slug})`}>
          {a.name}
        </span>{' '}
        <code className="muted">{a.slug}</code>
      </>
    ),
  },
  {
    key: 'status',
    header: 'Status',
    width: '11%',
    compactWidth: '22%',
    cell: (a) => <AgentStatusBadge status={a.status} />,
  },
  {
    key: 'primary',
    header: 'Primary model',
    width: '19%',
    cell: (a) => <ModelName name={a.model?.primary} />,
  },
  {
    key: 'fallback',
    header: 'Fallback model',
    width: '19%',
    cell: (a) => <ModelName name={a.model?.fallback} />,
  },
  {
    key: 'deployed',
    header: 'Deployed',
    width: '12%',
    compactWidth: '28%',
    cell: (a) => <RelativeTime iso={a.deployed_at} />,
  },
  {
    key: 'open',
    header: 'Playground',
    width: '15%',
    cell: (a) => (
      <button
        type="button"
        className="secondary small"
        aria-label={`Open ${a.name} in playground`}
        onClick={(event) => {
          event.stopPropagation();
          openInPlayground({ agent: a.slug });
        }}
      >
        Open
      </button>
    ),
  },
];

export function AgentsScreen() {
  const profile = useActiveProfileId();
  const { limit, offset, search, selected } = useAgentsView();
  const query = useQuery(agentsPageQuery(profile, limit, offset));
  const page = query.data;
  const rows = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const agents = page?.agents ?? [];
    return needle
      ? agents.filter((a) => a.name.toLowerCase().includes(needle) || a.slug.toLowerCase().includes(needle))
      : agents;
  }, [page, search]);

  return (
    <section className="screen browse">
      <div className="screen-head">
        <ScreenHeading>Agents</ScreenHeading>
        <OpenById />
      </div>
      <div className="toolbar">
        <label className="inline-field">
          <span>Search</span>
          <input
            type="search"
            placeholder="Name or slug"
            value={search}
            onChange={(event) => useAgentsView.setState({ search: event.target.value })}
          />
        </label>
        {search.trim() && page ? (
          <span className="muted">
            {rows.length} of the {page.agents.length} agents on this page match
          </span>
        ) : null}
        <RefreshButton
          fetching={query.isFetching}
          updatedAt={query.dataUpdatedAt}
          onRefresh={() => refreshAgents(profile)}
        />
      </div>
      <div className={selected ? 'browse-split' : undefined}>
        <BrowseList
          label="Agents"
          noun="agents"
          rows={rows}
          columns={COLUMNS}
          rowKey={(a) => a.agent_id}
          selectedKey={selected?.agent_id}
          onSelect={(a) => useAgentsView.setState({ selected: a })}
          compact={selected !== undefined}
          scrollKey="agents"
          resetKey={`${limit}:${offset}`}
          query={query}
          loaded={page !== undefined}
          empty={
            search.trim() && page?.agents.length
              ? `No agent on this page has “${search.trim()}” in its name or slug.`
              : 'This account has no agents yet. Deploy one in the service’s dashboard.'
          }
        >
          <Pager
            label="Agents pages"
            offset={offset}
            limit={limit}
            sizes={AGENT_PAGE_SIZES}
            count={page?.agents.length ?? 0}
            total={page?.total}
            hasMore={page?.has_more}
            busy={query.isFetching}
            onOffset={(next) => useAgentsView.setState({ offset: next })}
            onLimit={(next) => useAgentsView.setState({ limit: next, offset: 0 })}
          />
        </BrowseList>
        {selected ? <AgentDetail agent={selected} /> : null}
      </div>
    </section>
  );
}
