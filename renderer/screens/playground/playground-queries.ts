// The playground's server data, through the shared query cache (STYLE.md): the agents to choose
// from and the sessions this console has recorded, both per active profile.
import { useQuery } from '@tanstack/react-query';
import { bridge } from '../../bridge';
import { useProfiles } from '../../components/queries';
import { SESSIONS_QUERY } from './playground-actions';

export function useActiveProfileId(): string | undefined {
  return useProfiles().data?.find((p) => p.active)?.id;
}

export function usePlaygroundAgents() {
  const profileId = useActiveProfileId();
  return useQuery({
    queryKey: ['agents', 'all', profileId],
    // One page of the spec's maximum: the picker needs every agent, and 100 is the bound (§4).
    queryFn: () => bridge.agents.list({ limit: 100 }),
    enabled: profileId !== undefined,
  });
}

export function useSessions() {
  const profileId = useActiveProfileId();
  return useQuery({
    queryKey: [...SESSIONS_QUERY, profileId],
    queryFn: () => bridge.transcripts.list({ kind: 'session' }),
    enabled: profileId !== undefined,
    staleTime: 0,
  });
}
