// The health monitor's state and history through the query cache. The core pushes a
// `health:update` after every check: it replaces the state in the cache and marks the timeline
// and incident bands stale, so whatever is on screen refetches once per check, not on a timer.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { HealthRange } from '../../../shared/health';
import { bridge } from '../../bridge';
import { queryClient } from '../../components/queries';

bridge.on('health:update', (update) => {
  queryClient.setQueryData(['health', 'state'], update.state);
  // The "checking…" update before a poll changes nothing in the history.
  if (update.sample || !update.state.checking) {
    void queryClient.invalidateQueries({ queryKey: ['health', 'timeline'] });
    void queryClient.invalidateQueries({ queryKey: ['health', 'incidents'] });
  }
});

export const useHealthState = () =>
  useQuery({ queryKey: ['health', 'state'], queryFn: () => bridge.health.status({}), staleTime: Infinity });

export const useHealthTimeline = (range: HealthRange) =>
  useQuery({
    queryKey: ['health', 'timeline', range],
    queryFn: () => bridge.health.timeline({ range }),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
