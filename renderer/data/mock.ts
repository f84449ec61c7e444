// The embedded mock's control room (mock:*): its state — refreshed by the core's `mock:changed`
// (bridge-cache.ts), so the Mock screen and the header's chaos badge always agree —, what it
// received, its recorded replies, and every dashboard action. An action answers with the mock's new
// state, written into the cache at once.
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { BridgeInput, MockStateView } from '../../shared/bridge';
import { bridge } from '../bridge';
import { useChange } from './change';
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

function useMockChange<I>(
  change: (input: I) => Promise<MockStateView>,
  alsoChanged: readonly QueryKey[] = [],
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (state) => {
      client.setQueryData(mockStateQuery.queryKey, state);
      for (const queryKey of alsoChanged) void client.invalidateQueries({ queryKey });
    },
  });
}

/** An agent's status or pacing is what the service lists: every cached agent list is stale. */
export const useSetMockAgent = () =>
  useMockChange((input: BridgeInput<'mock:agent'>) => bridge.mock.agent(input), [queryKeys.agents.root()]);
export const useResetMock = () =>
  useMockChange((_: void) => bridge.mock.reset({}), [queryKeys.agents.root()]);
export const useSetMockHealth = () =>
  useMockChange((input: BridgeInput<'mock:health'>) => bridge.mock.health(input));
export const useSetMockErrorShape = () =>
  useMockChange((input: BridgeInput<'mock:errorShape'>) => bridge.mock.errorShape(input));
export const useSetMockChaos = () =>
  useMockChange((input: BridgeInput<'mock:chaos'>) => bridge.mock.chaos(input));
export const useUpdateMockKey = () =>
  useMockChange((input: BridgeInput<'mock:keyUpdate'>) => bridge.mock.keyUpdate(input));
export const useRevokeMockKey = () => useMockChange((id: string) => bridge.mock.keyRevoke({ id }));
export const useAssignFixture = () =>
  useMockChange((input: BridgeInput<'mock:fixtureAssign'>) => bridge.mock.fixtureAssign(input));
export const useClearFixture = () => useMockChange((slug: string) => bridge.mock.fixtureClear({ slug }));

/** A key made at the mock goes straight into Keys (a session key). */
export const useCreateMockKey = () =>
  useChange(
    (input: BridgeInput<'mock:keyCreate'>) => bridge.mock.keyCreate(input),
    [queryKeys.mock.state(), queryKeys.keys()],
  );

export const useSaveFixture = () =>
  useChange(
    (input: BridgeInput<'mock:fixtureSave'>) => bridge.mock.fixtureSave(input),
    [queryKeys.mock.fixtures()],
  );
export const useImportFixture = () =>
  useChange((text: string) => bridge.mock.fixtureImport({ text }), [queryKeys.mock.fixtures()]);
export const useRemoveFixture = () =>
  useChange((id: string) => bridge.mock.fixtureRemove({ id }), [queryKeys.mock.fixtures()]);

export const exportFixture = (id: string) => bridge.mock.fixtureExport({ id });
