// The embedded mock's dashboard actions (mock:*). An action answers with the mock's new state,
// written into the cache at once; the others invalidate what they changed. Apart from mock.ts,
// which the header's chaos badge reads: the first screen's bundle carries no mutation code.
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { BridgeInput, MockStateView } from '../../shared/bridge';
import { bridge } from '../bridge';
import { useChange } from './change';
import { mockStateQuery } from './mock';
import { queryKeys } from './query-keys';

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
/**
 * Reset deletes the mock's conversations and threads, and the console's records of them: the
 * browsers and the playground's sessions list are read again.
 */
export const useResetMock = () =>
  useMockChange(
    (_: void) => bridge.mock.reset({}),
    [
      queryKeys.agents.root(),
      queryKeys.conversations.root(),
      queryKeys.threads.root(),
      queryKeys.transcripts.root(),
    ],
  );
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

export const useImportFixture = () =>
  useChange((text: string) => bridge.mock.fixtureImport({ text }), [queryKeys.mock.fixtures()]);
export const useRemoveFixture = () =>
  useChange((id: string) => bridge.mock.fixtureRemove({ id }), [queryKeys.mock.fixtures()]);
