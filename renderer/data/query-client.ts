// The renderer's one query cache (STYLE.md: server data through a query cache, not copied into
// stores by hand).
import { QueryClient } from '@tanstack/react-query';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 } },
});
