// The one place where the core's events reach the query cache: lists the core pushes whole are
// written in, and what an event makes stale is invalidated by its key's prefix (query-keys.ts).
import { bridge } from '../bridge';
import { queryClient } from './query-client';
import { queryKeys } from './query-keys';

let wired = false;

export function wireBridgeToCache(): void {
  if (wired) return;
  wired = true;
  bridge.on('keys:changed', (keys) => {
    queryClient.setQueryData(queryKeys.keys(), keys);
    // Where keys can be kept is in the app's info; the keychain's probe ending is such a change.
    void queryClient.invalidateQueries({ queryKey: queryKeys.appInfo() });
  });
  bridge.on('profiles:changed', (profiles) => {
    queryClient.setQueryData(queryKeys.profiles(), profiles);
    // A profile pointed elsewhere, or another one made active: "Connected" must be asked again.
    void queryClient.invalidateQueries({ queryKey: queryKeys.connections() });
  });
  bridge.on('health:update', (update) => {
    if (update.monitorId) queryClient.setQueryData(queryKeys.health.state(update.monitorId), update.state);
    // "The active profile's" may be a saved monitor's or its own poll: asked again when shown.
    void queryClient.invalidateQueries({ queryKey: queryKeys.health.state() });
    if (!update.monitorId) queryClient.setQueryData(queryKeys.health.state(), update.state);
    // The "checking…" update before a poll changes nothing in the history.
    if (update.sample || !update.state.checking) {
      void queryClient.invalidateQueries({ queryKey: queryKeys.health.timelines() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.health.incidents() });
    }
  });
  bridge.on('app:updateStatus', (status) => queryClient.setQueryData(queryKeys.updates(), status));
  bridge.on('monitors:changed', (views) => {
    queryClient.setQueryData(queryKeys.monitors(), views);
    // An incident opened, acknowledged, updated or resolved comes with the rows.
    void queryClient.invalidateQueries({ queryKey: queryKeys.incidents.root() });
  });
  bridge.on('mock:changed', (state) => {
    queryClient.setQueryData(queryKeys.mock.state(), state);
    // An agent's status or pacing changed at the mock: every cached agent list is stale.
    void queryClient.invalidateQueries({ queryKey: queryKeys.agents.root() });
  });
  bridge.on('chat:end', () => {
    // A reply (or its failure) was recorded: the sessions list shows its last message.
    void queryClient.invalidateQueries({ queryKey: queryKeys.transcripts.root() });
  });
}
