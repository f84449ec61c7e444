// The embedded mock's state, cached and refreshed by the core's `mock:changed` events
// (bridge-cache.ts), so the Mock screen and the header's chaos badge always agree.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { bridge } from '../bridge';
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
