// The renderer's one query cache: server data lives here, not copied into stores by hand.
import { QueryClient } from '@tanstack/react-query';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 } },
});

/**
 * A service's lists (agents, conversations, threads) stay fresh five minutes, and every browser has
 * a Refresh button: switching screens is instant and costs no request against the rate limit.
 */
export const BROWSE_STALE_MS = 5 * 60_000;
