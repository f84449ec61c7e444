// The shell every screen lives in: the header (profile, rate limit), the navigation, the screen.
import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense, useEffect, useState, type ComponentType, type MouseEvent, type ReactNode } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { prepareClockTime } from './components/clock-time';
import { ErrorMessage } from './components/error-message';
import { ScreenFailure } from './components/screen-failure';
import { StartupWarnings } from './components/startup-warnings';
import { useAppInfo } from './data/app';
import { wireBridgeToCache } from './data/bridge-cache';
import { useProfiles } from './data/profiles';
import { queryClient } from './data/query-client';
import { ChaosBadge } from './shell/chaos-badge';
import { startHealthNotifications } from './shell/health-notifications';
import { HistorySearch } from './shell/history-search';
import { MuteToggle } from './shell/mute-toggle';
import { ProfileSwitcher } from './shell/profile-switcher';
import { RateGauge } from './shell/rate-gauge';
import { ThemeSwitch } from './shell/theme-switch';
import { UpdateReady } from './shell/update-ready';
import { WindowTitle } from './shell/window-title';
import { followHistoryLinks } from './stores/history-link';
import { SCREENS, useNavigation, type Screen } from './stores/navigation';

// Each screen is its own chunk, fetched when first shown: the first paint carries only the shell
// (header, navigation) and the screen in view. Not a React.lazy behind Suspense: React holds back
// content that replaces a Suspense fallback until 300 ms after the fallback showed
// (FALLBACK_THROTTLE_MS), so the first screen's playground came a third of a second after its
// "Connected", and every screen's first visit as late, for no other reason. Fetched
// while the core opened instead, ahead of the first replies, its requests and script slowed the
// core's start by ~30 ms (measured): it is fetched once the shell has its data.
const SCREEN_VIEWS = {
  Agents: screenChunk(() => import('./screens/agents/agents-screen').then((m) => m.AgentsScreen)),
  Conversations: screenChunk(() =>
    import('./screens/conversations/conversations-screen').then((m) => m.ConversationsScreen),
  ),
  Health: screenChunk(() => import('./screens/health/health-screen').then((m) => m.HealthScreen)),
  Overview: screenChunk(() => import('./screens/overview/overview-screen').then((m) => m.OverviewScreen)),
  Keys: screenChunk(() => import('./screens/keys/keys-screen').then((m) => m.KeysScreen)),
  Mock: screenChunk(() => import('./screens/mock-room/mock-screen').then((m) => m.MockScreen)),
  Log: screenChunk(() => import('./screens/log/log-screen').then((m) => m.LogScreen)),
  Playground: screenChunk(() =>
    import('./screens/playground/playground-screen').then((m) => m.PlaygroundScreen),
  ),
  Reviews: screenChunk(() => import('./screens/reviews/reviews-screen').then((m) => m.ReviewsScreen)),
  Profiles: screenChunk(() => import('./screens/profiles/profiles-screen').then((m) => m.ProfilesScreen)),
  Settings: screenChunk(() => import('./screens/settings/settings-screen').then((m) => m.SettingsScreen)),
  Tests: screenChunk(() => import('./screens/suites/tests-screen').then((m) => m.TestsScreen)),
  Threads: screenChunk(() => import('./screens/threads/threads-screen').then((m) => m.ThreadsScreen)),
  Usage: screenChunk(() => import('./screens/usage/usage-screen').then((m) => m.UsageScreen)),
} satisfies Record<Screen, ScreenView>;

/** A screen: its code's component once here; until then "Loading …", or the fetch's failure. */
type ScreenView = (props: { screen: Screen }) => ReactNode;

/** A screen whose code is fetched once; a failed fetch is made again next time (the retry). */
function screenChunk(load: () => Promise<ComponentType>): ScreenView {
  let loading: Promise<ComponentType> | undefined;
  let loaded: ComponentType | undefined;
  const fetchCode = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  function View({ screen }: { screen: Screen }): ReactNode {
    const [code, setCode] = useState<{ component?: ComponentType; failure?: unknown }>(() => ({
      component: loaded,
    }));
    useEffect(() => {
      if (code.component) return;
      let mounted = true;
      fetchCode().then(
        (component) => mounted && setCode({ component }),
        (failure: unknown) => mounted && setCode({ failure }),
      );
      return () => {
        mounted = false;
      };
    }, [code.component]);
    // Thrown, it is the error boundary's to show (ScreenFailure), and going to another screen resets.
    if (code.failure !== undefined) throw code.failure;
    const Component = code.component;
    return Component ? <Component /> : <ScreenLoading screen={screen} />;
  }
  return View;
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <Shell />
    </QueryClientProvider>
  );
}

function ScreenLoading({ screen }: { screen: Screen }) {
  return <p className="screen-loading">Loading {screen}…</p>;
}

function CurrentScreen({ screen }: { screen: Screen }) {
  const View = SCREEN_VIEWS[screen];
  return <View screen={screen} />;
}

/** The skip link: to the playground's message box, from any screen. */
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
    wireBridgeToCache();
    // Status changes notify whichever screen is showing, from the first one (the Health screen is
    // a lazy chunk: started there, nothing was notified until it had been opened).
    startHealthNotifications();
    // An in-app link (a reviews export's) in the address opens its conversation or thread.
    return followHistoryLinks();
  }, []);
  const ready = info.isSuccess && profiles.isSuccess;
  useEffect(() => {
    // Locale data for times, loaded while the page is idle rather than in a message's first Send,
    // and once the first screen has its data: asked at mount, the idle callback (~16 ms) ran
    // while the first bridge replies were on their way and held up their render.
    if (ready) prepareClockTime();
  }, [ready]);
  const onMock = profiles.data?.find((p) => p.active)?.builtIn === true;
  return (
    <div className="app" data-app-state={ready ? 'ready' : info.isError ? 'error' : 'loading'}>
      <header className="app-header">
        {/* First in the banner landmark: the first thing Tab reaches, and inside a landmark. */}
        <a className="skip-link" href="#composer" onClick={(event) => skipToComposer(event, go)}>
          Skip to the message box
        </a>
        <p className="app-name">Agent Console</p>
        <ProfileSwitcher />
        <ChaosBadge />
        <RateGauge />
        <UpdateReady />
        <MuteToggle />
        <ThemeSwitch />
        {ready ? <WindowTitle /> : null}
      </header>
      <nav className="app-nav" aria-label="Main">
        {/* At the top of the navigation, on every screen; the header has no room to spare. */}
        {ready ? <HistorySearch /> : null}
        <ul>
          {SCREENS.filter((name) => name !== 'Mock' || onMock).map((name) => (
            <li key={name}>
              <a
                href={`#/${name.toLowerCase()}`}
                aria-current={screen === name ? 'page' : undefined}
                onClick={(event) => {
                  event.preventDefault();
                  go(name, { focusHeading: true });
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
            <Suspense fallback={<ScreenLoading screen={screen} />}>
              <CurrentScreen screen={screen} />
            </Suspense>
          </ErrorBoundary>
        ) : info.isError ? null : (
          // `npm run web` serves the page while the core opens: say so, not a blank pane.
          <p className="screen-loading" role="status">
            Starting the console…
          </p>
        )}
      </main>
    </div>
  );
}
