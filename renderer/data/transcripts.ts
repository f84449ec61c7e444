// What this console recorded (transcripts:*): the service keeps no history, so the sessions and
// threads this client sent and received are on disk, per profile. Not behind the limiter: re-read
// whenever a screen shows them.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Transcript, TranscriptKind } from '../../shared/transcript';
import { bridge } from '../bridge';
import { useActiveProfileId } from './profiles';
import { queryClient } from './query-client';
import { queryKeys } from './query-keys';

export const transcriptsQuery = (profile: string | undefined, kind: TranscriptKind) =>
  queryOptions({
    queryKey: queryKeys.transcripts.list(profile, kind),
    queryFn: () => bridge.transcripts.list({ kind }),
    staleTime: 0,
  });

export const transcriptQuery = (profile: string | undefined, kind: TranscriptKind, id: string) =>
  queryOptions({
    queryKey: queryKeys.transcripts.one(profile, kind, id),
    queryFn: () => bridge.transcripts.get({ kind, id }),
    staleTime: 0,
  });

/** Ids this client holds a transcript for, and whether each is known from its start. */
export function useKnownTranscripts(kind: TranscriptKind): Map<string, 'start' | 'partial'> {
  const summaries = useQuery(transcriptsQuery(useActiveProfileId(), kind)).data?.summaries;
  // A new Map only when the listing changes, so memoised rows do not re-render for nothing.
  return useMemo(() => new Map((summaries ?? []).map((s) => [s.id, s.knownFrom])), [summaries]);
}

/** The playground's sidebar: the sessions recorded for the active profile. */
export function useSessions() {
  const profileId = useActiveProfileId();
  return useQuery({ ...transcriptsQuery(profileId, 'session'), enabled: profileId !== undefined });
}

/** A session's record as the playground reopens it (null when this console has none). */
export const readSession = (id: string): Promise<Transcript | null> =>
  bridge.transcripts.get({ kind: 'session', id });

/**
 * Forgets a session's record on this computer; every profile's lists are read again. A plain
 * function, not a mutation hook: the playground is the first screen, whose bundle carries no
 * mutation code.
 */
export async function forgetSession(id: string): Promise<void> {
  await bridge.transcripts.remove({ kind: 'session', id });
  refreshSessions();
}

/** A reply was recorded (or its failure): every profile's session lists, as a reply may land after a switch. */
export function refreshSessions(): void {
  void queryClient.invalidateQueries({ queryKey: queryKeys.transcripts.root() });
}
