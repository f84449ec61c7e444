// The playground's server data, through the shared query cache (STYLE.md): the agents to choose
// from (the same cached list as the browsers' pickers) and the sessions this console has recorded,
// both per active profile.
import { useQuery } from '@tanstack/react-query';
import { bridge } from '../bridge';
import { allAgentsQuery } from './browse-queries';
import { useActiveProfileId } from './queries';
import { queryKeys } from './query-keys';

export function usePlaygroundAgents() {
  const profileId = useActiveProfileId();
  // Re-read now and then, so a chosen agent stopped or removed meanwhile is said (agent-picker.tsx).
  return useQuery({
    ...allAgentsQuery(profileId),
    enabled: profileId !== undefined,
    refetchInterval: 60_000,
    refetchOnWindowFocus: true,
  });
}

export function useSessions() {
  const profileId = useActiveProfileId();
  return useQuery({
    queryKey: queryKeys.transcripts.list(profileId, 'session'),
    queryFn: () => bridge.transcripts.list({ kind: 'session' }),
    enabled: profileId !== undefined,
    staleTime: 0,
  });
}
