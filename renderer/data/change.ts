// A change through the bridge, as a mutation that marks stale exactly the queries it changed — the
// call and what it invalidates side by side in the domain's module, never in a screen. Not awaited:
// the mutation settles when the core has answered, as the call did; the lists refetch after.
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

export function useChange<I, O>(change: (input: I) => Promise<O>, changed: readonly QueryKey[]) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () => {
      for (const queryKey of changed) void client.invalidateQueries({ queryKey });
    },
  });
}
