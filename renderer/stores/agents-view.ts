// The Agents browser's view: page, page size, search and the open agent. Kept here, not in the
// component, so leaving the screen and coming back finds it as it was.
import { create } from 'zustand';
import type { ReceivedAgent as Agent } from '../../shared/received';

export const AGENT_PAGE_SIZES = [20, 50, 100] as const;
type AgentPageSize = (typeof AGENT_PAGE_SIZES)[number];

interface AgentsView {
  limit: AgentPageSize;
  offset: number;
  search: string;
  /** The agent in the detail panel; kept whole because an agent opened by id may be on another page. */
  selected: Agent | undefined;
}

export const useAgentsView = create<AgentsView>(() => ({
  limit: 20,
  offset: 0,
  search: '',
  selected: undefined,
}));
