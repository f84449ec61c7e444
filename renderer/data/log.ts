// The request log (log:*): the core pushes each entry as it is made and says when the log was
// cleared (stores/live.ts keeps the rows); one entry whole (headers and bodies) is read when the
// Log shows it, and dropped from the cache once nothing shows it, so bodies never pile up in the
// page.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RequestLogEntry } from '../../shared/request-log-entry';
import { bridge } from '../bridge';
import { queryKeys } from './query-keys';

export const listLog = (): Promise<RequestLogEntry[]> => bridge.log.list({});

export const onLogAdded = (listener: (entry: RequestLogEntry) => void): (() => void) =>
  bridge.on('log:added', listener);

export const onLogCleared = (listener: () => void): (() => void) => bridge.on('log:cleared', listener);

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
