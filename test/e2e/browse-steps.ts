// The Agents, Conversations and Threads browsers' test steps: agents and conversations added to the
// mock's state, a table's body rows, and the text of a download.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Download, Page } from '@playwright/test';
import type { MockServer } from '../../mock/server';

export function addAgents(mock: MockServer, count: number): void {
  const base = mock.service.state.agents[0];
  if (!base) throw new Error('The mock has no agents.');
  for (let i = 0; i < count; i++) {
    mock.service.state.agents.push({
      ...structuredClone(base),
      agent_id: randomUUID(),
      slug: `extra-${String(i).padStart(2, '0')}`,
      name: `Extra ${String(i).padStart(2, '0')}`,
      status: i % 5 === 4 ? 'stopped' : 'deployed',
    });
  }
  mock.service.changed();
}

export function addConversations(
  mock: MockServer,
  agent: string,
  count: number,
  startMs = Date.now() - 86_400_000,
): void {
  for (let i = 0; i < count; i++) {
    const at = new Date(startMs - i * 60_000).toISOString();
    mock.service.state.conversations.push({
      id: `conv_${agent.replace(/\W/g, '')}${i}`,
      agent,
      session_id: `${agent.replace(/\W/g, '')}Session${i}`,
      message_count: 2 + (i % 7) * 2,
      started_at: at,
      last_message_at: at,
      history: [],
    });
  }
}

export async function downloaded(download: Download): Promise<string> {
  const path = await download.path();
  return readFileSync(path, 'utf8');
}

/** Rows of a browser table, without the header row. */
export function bodyRows(app: Page, table: string) {
  return app.getByRole('table', { name: table }).locator('tbody tr:not(.vt-spacer)');
}
