// The shell every screen lives in: the header (profile, rate limit), the navigation, the screen.
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, type MouseEvent } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { ErrorMessage } from './components/error-message';
import { ScreenFailure } from './components/screen-failure';
import { useAppInfo, useProfiles } from './data/queries';
import { StartupWarnings } from './components/startup-warnings';
import { startHealthNotifications } from './screens/health/health-notifier';
import { queryClient } from './data/query-client';
import { wireBridgeToCache } from './data/bridge-cache';
import { ProfileSwitcher } from './components/profile-switcher';
import { RateGauge } from './components/rate-gauge';
import { MuteToggle } from './components/mute-toggle';
import { ThemeSwitch } from './components/theme-switch';
import { WindowTitle } from './components/window-title';
import { ChaosBadge } from './screens/mock-room/chaos-badge';
import { prepareClockTime } from './components/clock-time';
import { startLiveStores } from './stores/live';
import { SCREENS, useNavigation, type Screen } from './stores/navigation';

// Each screen is its own chunk, loaded when first shown: the first paint carries only the shell
// (header, navigation) and the screen in view (issue 18).
const AgentsScreen = lazy(() =>
  import('./screens/agents/agents-screen').then((m) => ({ default: m.AgentsScreen })),
);
const ConversationsScreen = lazy(() =>
  import('./screens/conversations/conversations-screen').then((m) => ({ default: m.ConversationsScreen })),
);
const HealthScreen = lazy(() =>
  import('./screens/health/health-screen').then((m) => ({ default: m.HealthScreen })),
);
const OverviewScreen = lazy(() =>
  import('./screens/overview/overview-screen').then((m) => ({ default: m.OverviewScreen })),
);
const KeysScreen = lazy(() => import('./screens/keys/keys-screen').then((m) => ({ default: m.KeysScreen })));
const MockScreen = lazy(() =>
  import('./screens/mock-room/mock-screen').then((m) => ({ default: m.MockScreen })),
);
const LogScreen = lazy(() => import('./screens/log/log-screen').then((m) => ({ default: m.LogScreen })));
const PlaceholderScreen = lazy(() =>
  import('./screens/placeholder/placeholder-screen').then((m) => ({ default: m.PlaceholderScreen })),
);
const PlaygroundScreen = lazy(() =>
  import('./screens/playground/playground-screen').then((m) => ({ default: m.PlaygroundScreen })),
);
const ProfilesScreen = lazy(() =>
  import('./screens/profiles/profiles-screen').then((m) => ({ default: m.ProfilesScreen })),
);
const TestsScreen = lazy(() =>
  import('./screens/tests/tests-screen').then((m) => ({ default: m.TestsScreen })),
);
const ThreadsScreen = lazy(() =>
  import('./screens/threads/threads-screen').then((m) => ({ default: m.ThreadsScreen })),
);
const UsageScreen = lazy(() =>
  import('./screens/usage/usage-screen').then((m) => ({ default: m.UsageScreen })),
);

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <Shell />
    </QueryClientProvider>
  );
}

function ScreenView({ screen }: { screen: Screen }) {
  switch (screen) {
    case 'Overview':
      return <OverviewScreen />;
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
    case 'Tests':
      return <TestsScreen />;
    default:
      return <PlaceholderScreen screen={screen} />;
  }
}

/** The skip link (issue 14): to the playground's message box, from any screen. */
function skipToComposer(event: MouseEvent, go: (screen: Screen) => void): void {
  event.preventDefault();
  go('Playground');
  const focus = (triesLeft: number) => {
    const box = document.getElementById('composer');
    if (box) box.focus();
    else if (triesLeft > 0) setTimeout(() => focus(triesLeft - 1), 50);
  };
  focus(100);
}

function Shell() {
  const info = useAppInfo();
  const profiles = useProfiles();
  const { screen, go } = useNavigation();
  useEffect(() => {
    startLiveStores();
    wireBridgeToCache();
    // Status changes notify whichever screen is showing, from the first one (the Health screen is
    // a lazy chunk: started there, nothing was notified until it had been opened).
    startHealthNotifications();
  }, []);
  const ready = info.isSuccess && profiles.isSuccess;
  useEffect(() => {
    // Locale data for times, loaded while the page is idle rather than in a message's first Send,
    // and once the first screen has its data: asked at mount, the idle callback (~16 ms) ran
    // while the first bridge replies were on their way and held up their render (issue 18).
    if (ready) prepareClockTime();
  }, [ready]);
  const onMock = profiles.data?.find((p) => p.active)?.builtIn === true;
  return (
    <div className="app" data-app-state={ready ? 'ready' : info.isError ? 'error' : 'loading'}>
      <a className="skip-link" href="#composer" onClick={(event) => skipToComposer(event, go)}>
        Skip to the message box
      </a>
      <header className="app-header">
        <h1>Agent Console</h1>
        <ProfileSwitcher />
        <ChaosBadge />
        <RateGauge />
        <MuteToggle />
        <ThemeSwitch />
        {ready ? <WindowTitle /> : null}
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
        {info.data ? <StartupWarnings warnings={info.data.warnings} /> : null}
        {ready ? (
          // A screen that throws, or whose code cannot be fetched, says so; going to another resets.
          <ErrorBoundary FallbackComponent={ScreenFailure} resetKeys={[screen]}>
            <Suspense fallback={<p className="screen-loading">Loading {screen}…</p>}>
              <ScreenView screen={screen} />
            </Suspense>
          </ErrorBoundary>
        ) : info.isError ? null : (
          // `npm run web` serves the page while the core opens (issue 18): say so, not a blank pane.
          <p className="screen-loading" role="status">
            Starting the console…
          </p>
        )}
      </main>
    </div>
  );
}
