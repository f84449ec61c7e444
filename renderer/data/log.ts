// The request log on the Log screen (log:get, log:curl, log:export, log:clear): one entry whole
// (headers and bodies), read when the Log shows it and dropped from the cache once nothing shows
// it, so bodies never pile up in the page; "copy as curl"; the exports; a HAR file imported;
// clearing it. The rows themselves come from log-feed.ts.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { bridge } from '../bridge';
import { readHarFile } from './har-file';
import { queryKeys } from './query-keys';

export const useLogEntry = (id: string) =>
  useQuery({
    queryKey: queryKeys.log.entry(id),
    queryFn: () => bridge.log.get({ id }),
    staleTime: Infinity,
    gcTime: 0,
  });

/** How long typing must pause before the bodies are searched: one search per word, not per key. */
const BODY_SEARCH_PAUSE_MS = 250;

/**
 * The ids of the entries whose request or response body holds `text` (the live rows carry no
 * bodies, so the core searches them): asked once typing pauses, and again when `newestId` (the
 * newest entry) changes. Undefined while there is nothing to search for.
 */
export function useLogBodyMatches(
  text: string,
  newestId: string | undefined,
): ReadonlySet<string> | undefined {
  const [asked, setAsked] = useState(text.trim());
  useEffect(() => {
    const timer = setTimeout(() => setAsked(text.trim()), BODY_SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const search = useQuery({
    queryKey: queryKeys.log.search(asked, newestId ?? ''),
    queryFn: () => bridge.log.search({ text: asked }).then((r) => new Set(r.ids)),
    enabled: asked !== '',
    placeholderData: keepPreviousData,
    gcTime: 0,
  });
  return asked === '' ? undefined : search.data;
}

/** "Copy as curl" of a logged request, the key as `$AGENT_API_KEY`. */
export const logCurl = (id: string): Promise<string> => bridge.log.curl({ id }).then((r) => r.command);

/** A HAR file's requests added to the log: its rows arrive as `log:added`, marked as imported. */
export const importHarToLog = async (file: File) => bridge.log.importHar(await readHarFile(file));

export const exportLog = (format: 'json' | 'har') => bridge.log.export({ format });

/** The rows leave the live store on `log:cleared`; an entry read whole is gone from the core too. */
export function useClearLog() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => bridge.log.clear({}),
    onSuccess: () => client.removeQueries({ queryKey: queryKeys.log.root() }),
  });
}
