// The name people acknowledge and update incidents under (monitors:incidentName), and saving it
// (monitors:setIncidentName): the query, its hook and the mutation that puts the saved name in
// the cache, side by side.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { bridge } from '../bridge';
import { queryKeys } from './query-keys';

const incidentNameQuery = queryOptions({
  queryKey: queryKeys.incidentName(),
  queryFn: () => bridge.monitors.incidentName({}),
  staleTime: Infinity,
});

export const useIncidentName = () => useQuery(incidentNameQuery);

/** Saves the name; the core answers with it as now kept (on disk), which the cache takes. */
export function useSaveIncidentName() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => bridge.monitors.setIncidentName({ name }),
    onSuccess: (saved) => client.setQueryData(incidentNameQuery.queryKey, saved),
  });
}
