// The embedded mock's state, cached and refreshed by the core's `mock:changed` events, so the Mock
// screen and the header's chaos badge always agree.
import { useQuery } from '@tanstack/react-query';
import { bridge } from '../../bridge';
import { queryClient } from '../../components/queries';

bridge.on('mock:changed', (state) => {
  queryClient.setQueryData(['mock-state'], state);
  // An agent's status changed at the mock: every agent list (playground picker, Agents screen) is stale.
  void queryClient.invalidateQueries({ predicate: (q) => JSON.stringify(q.queryKey).includes('agents') });
});

export const useMockState = () =>
  useQuery({ queryKey: ['mock-state'], queryFn: () => bridge.mock.state({}) });
export const useFixtures = () =>
  useQuery({ queryKey: ['mock-fixtures'], queryFn: () => bridge.mock.fixtures({}) });
