// The request log on the Log screen (log:get, log:curl, log:export, log:clear): one entry whole
// (headers and bodies), read when the Log shows it and dropped from the cache once nothing shows
// it, so bodies never pile up in the page; "copy as curl"; the exports; clearing it. The rows
// themselves come from log-feed.ts.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { bridge } from '../bridge';
import { queryKeys } from './query-keys';

export const useLogEntry = (id: string) =>
  useQuery({
    queryKey: queryKeys.log.entry(id),
    queryFn: () => bridge.log.get({ id }),
    staleTime: Infinity,
    gcTime: 0,
  });

/** "Copy as curl" of a logged request, the key as `$AGENT_API_KEY`. */
export const logCurl = (id: string): Promise<string> => bridge.log.curl({ id }).then((r) => r.command);

export const exportLog = (format: 'json' | 'har') => bridge.log.export({ format });

/** The rows leave the live store on `log:cleared`; an entry read whole is gone from the core too. */
export function useClearLog() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => bridge.log.clear({}),
    onSuccess: () => client.removeQueries({ queryKey: queryKeys.log.root() }),
  });
}
