// What the shell shows on every screen (the header's profile and "Connected", the chaos badge, the
// mute button, the rate gauge) is asked for as the page starts, before React's first render, in one
// batch (issue 18). Asked from the components, the calls left only after the first render had
// committed (40–60 ms of a loaded machine's first screen), so the answers came that much later.
import { notificationsMutedQuery } from '../components/mute-toggle';
import { startLiveStores } from '../stores/live';
import { healthStateQuery } from './health-queries';
import { mockStateQuery } from './mock-queries';
import { queryClient } from './query-client';
import { appInfoQuery, profilesQuery } from './queries';

export function prefetchShellData(): void {
  // A failed call stays in the cache as its query's error, which the component that reads it shows.
  void queryClient.prefetchQuery(appInfoQuery);
  void queryClient.prefetchQuery(profilesQuery);
  void queryClient.prefetchQuery(healthStateQuery());
  void queryClient.prefetchQuery(mockStateQuery);
  void queryClient.prefetchQuery(notificationsMutedQuery);
  startLiveStores();
}
