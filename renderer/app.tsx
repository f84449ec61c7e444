// The shell every screen lives in: the header (profile, rate limit), the navigation, the screen.
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ErrorMessage } from './components/error-message';
import { queryClient, useAppInfo, useProfiles } from './components/queries';
import { ProfileSwitcher } from './components/profile-switcher';
import { RateGauge } from './components/rate-gauge';
import { AgentsScreen } from './screens/agents/agents-screen';
import { ConversationsScreen } from './screens/conversations/conversations-screen';
import { HealthScreen } from './screens/health/health-screen';
import { KeysScreen } from './screens/keys/keys-screen';
import { ChaosBadge } from './screens/mock-room/chaos-badge';
import { MockScreen } from './screens/mock-room/mock-screen';
import { LogScreen } from './screens/log/log-screen';
import { PlaceholderScreen } from './screens/placeholder/placeholder-screen';
import { PlaygroundScreen } from './screens/playground/playground-screen';
import { ProfilesScreen } from './screens/profiles/profiles-screen';
import { ThreadsScreen } from './screens/threads/threads-screen';
import { UsageScreen } from './screens/usage/usage-screen';
import { startLiveStores } from './stores/live';
import { SCREENS, useNavigation, type Screen } from './stores/navigation';

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <Shell />
    </QueryClientProvider>
  );
}

function ScreenView({ screen }: { screen: Screen }) {
  switch (screen) {
    case 'Keys':
      return <KeysScreen />;
    case 'Profiles':
      return <ProfilesScreen />;
    case 'Log':
      return <LogScreen />;
    case 'Mock':
      return <MockScreen />;
    case 'Playground':
      return <PlaygroundScreen />;
    case 'Threads':
      return <ThreadsScreen />;
    case 'Conversations':
      return <ConversationsScreen />;
    case 'Agents':
      return <AgentsScreen />;
    case 'Usage':
      return <UsageScreen />;
    case 'Health':
      return <HealthScreen />;
    default:
      return <PlaceholderScreen screen={screen} />;
  }
}

function Shell() {
  const info = useAppInfo();
  const profiles = useProfiles();
  const { screen, go } = useNavigation();
  useEffect(() => startLiveStores(), []);
  const ready = info.isSuccess && profiles.isSuccess;
  const onMock = profiles.data?.find((p) => p.active)?.builtIn === true;
  return (
    <div className="app" data-app-state={ready ? 'ready' : info.isError ? 'error' : 'loading'}>
      <header className="app-header">
        <h1>Agent Console</h1>
        <ProfileSwitcher />
        <ChaosBadge />
        <RateGauge />
      </header>
      <nav className="app-nav" aria-label="Main">
        <ul>
          {SCREENS.filter((name) => name !== 'Mock' || onMock).map((name) => (
            <li key={name}>
              <a
                href={`#/${name.toLowerCase()}`}
                aria-current={screen === name ? 'page' : undefined}
                onClick={(event) => {
                  event.preventDefault();
                  go(name);
                }}
              >
                {name}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main className="app-main" aria-label={screen}>
        {info.isError ? <ErrorMessage error={info.error} title="The console could not start." /> : null}
        {ready ? <ScreenView screen={screen} /> : null}
      </main>
    </div>
  );
}
