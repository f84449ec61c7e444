// What the shell shows on every screen (the header's profile and "Connected", the chaos badge, the
// mute button) is asked for as the page starts, before React's first render, in one batch with the
// live stores' first reads (main.tsx). Asked from the components, the calls left only after the
// first render had committed (40–60 ms of a loaded machine's first screen), so the answers came
// that much later (docs/architecture.md, "First screen").
import { appInfoQuery } from './app';
import { healthStateQuery } from './health';
import { mockStateQuery } from './mock';
import { notificationsMutedQuery } from './monitors';
import { profilesQuery } from './profiles';
import { queryClient } from './query-client';

export function prefetchShellData(): void {
  // A failed call stays in the cache as its query's error, which the component that reads it shows.
  void queryClient.prefetchQuery(appInfoQuery);
  void queryClient.prefetchQuery(profilesQuery);
  void queryClient.prefetchQuery(healthStateQuery());
  void queryClient.prefetchQuery(mockStateQuery);
  void queryClient.prefetchQuery(notificationsMutedQuery);
}
