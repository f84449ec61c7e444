// The embedded mock's control room (mock:*): its state — refreshed by the core's `mock:changed`
// (bridge-cache.ts), so the Mock screen and the header's chaos badge always agree —, what it
// received, and its recorded replies. The dashboard's actions are in mock-actions.ts.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BridgeInput } from '../../shared/bridge';
import type { FixtureInfo } from '../../shared/bridge/mock';
import { bridge } from '../bridge';
import { queryClient } from './query-client';
import { queryKeys } from './query-keys';

export const mockStateQuery = queryOptions({
  queryKey: queryKeys.mock.state(),
  queryFn: () => bridge.mock.state({}),
});

export const useMockState = () => useQuery(mockStateQuery);
export const useFixtures = () =>
  useQuery({ queryKey: queryKeys.mock.fixtures(), queryFn: () => bridge.mock.fixtures({}) });
export const useMockRequests = () =>
  useQuery({ queryKey: queryKeys.mock.requests(), queryFn: () => bridge.mock.requests({}), staleTime: 0 });

/**
 * Records a streamed reply as a fixture for a mock agent to replay; the list of fixtures is read
 * again. A plain function, not a mutation hook: the playground, where replies are saved, is the
 * first screen, whose bundle carries no mutation code.
 */
export async function saveFixture(input: BridgeInput<'mock:fixtureSave'>): Promise<FixtureInfo> {
  const saved = await bridge.mock.fixtureSave(input);
  void queryClient.invalidateQueries({ queryKey: queryKeys.mock.fixtures() });
  return saved;
}

export const exportFixture = (id: string) => bridge.mock.fixtureExport({ id });
