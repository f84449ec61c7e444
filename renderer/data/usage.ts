// Usage (usage:get) over a period of 1–90 days, per profile.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { bridge } from '../bridge';
import { queryKeys } from './query-keys';

export const useUsage = (profileId: string | undefined, days: number) =>
  useQuery({
    queryKey: queryKeys.usage(profileId, days),
    queryFn: () => bridge.usage.get({ days }),
    enabled: profileId !== undefined,
    // The previous period stays on screen while the next loads, instead of a blank page.
    placeholderData: keepPreviousData,
  });
