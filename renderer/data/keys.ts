// Keys (keys:*): the masked list, adding one — its secret crosses the bridge this once — and
// removing one. The core also pushes the list whole after any change (bridge-cache.ts).
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BridgeInput } from '../../shared/bridge';
import { bridge } from '../bridge';
import { useChange } from './change';
import { queryKeys } from './query-keys';

const keysQuery = queryOptions({ queryKey: queryKeys.keys(), queryFn: () => bridge.keys.list({}) });

export const useKeys = () => useQuery(keysQuery);

export const useAddKey = () =>
  useChange((input: BridgeInput<'keys:add'>) => bridge.keys.add(input), [queryKeys.keys()]);

export const useRemoveKey = () => useChange((id: string) => bridge.keys.remove({ id }), [queryKeys.keys()]);
