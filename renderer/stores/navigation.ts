// Which screen is showing, kept in the URL's hash so a reload (or a deep link) comes back to it.
import { create } from 'zustand';

export const SCREENS = [
  'Overview',
  'Playground',
  'Threads',
  'Conversations',
  'Agents',
  'Usage',
  'Health',
  'Tests',
  'Keys',
  'Profiles',
  'Log',
  // Shown only while the active profile is the Embedded mock.
  'Mock',
] as const;
export type Screen = (typeof SCREENS)[number];

function fromHash(): Screen {
  const wanted = decodeURIComponent(window.location.hash.replace(/^#\/?/, '')).toLowerCase();
  return SCREENS.find((s) => s.toLowerCase() === wanted) ?? 'Playground';
}

interface NavigationState {
  screen: Screen;
  go(screen: Screen): void;
}

export const useNavigation = create<NavigationState>((set) => ({
  screen: fromHash(),
  go(screen) {
    window.location.hash = `/${screen.toLowerCase()}`;
    set({ screen });
  },
}));

window.addEventListener('hashchange', () => useNavigation.setState({ screen: fromHash() }));
