// Which screen is showing, kept in the URL's hash so a reload (or a deep link) comes back to it.
import { create } from 'zustand';

export const SCREENS = [
  'Overview',
  'Playground',
  'Threads',
  'Conversations',
  'Reviews',
  'Agents',
  'Usage',
  'Health',
  'Tests',
  'Keys',
  'Profiles',
  'Log',
  'Settings',
  // Shown only while the active profile is the Embedded mock.
  'Mock',
] as const;
export type Screen = (typeof SCREENS)[number];

function fromHash(): Screen {
  // The screen is the first part: an in-app link names a record after it (stores/history-link.ts).
  const [first = ''] = window.location.hash.replace(/^#\/?/, '').split(/[/?]/);
  const wanted = decodeURIComponent(first).toLowerCase();
  return SCREENS.find((s) => s.toLowerCase() === wanted) ?? 'Playground';
}

interface NavigationState {
  screen: Screen;
  /** Set when the user chose the screen from the sidebar: its heading takes focus once shown. */
  headingFocus: boolean;
  go(screen: Screen, options?: { focusHeading?: boolean }): void;
  /** Whether the screen's heading should take focus now; asked once, by the heading. */
  takeHeadingFocus(): boolean;
}

export const useNavigation = create<NavigationState>((set, get) => ({
  screen: fromHash(),
  headingFocus: false,
  go(screen, options) {
    window.location.hash = `/${screen.toLowerCase()}`;
    set({ screen, headingFocus: options?.focusHeading === true });
  },
  takeHeadingFocus() {
    const wanted = get().headingFocus;
    if (wanted) set({ headingFocus: false });
    return wanted;
  },
}));

window.addEventListener('hashchange', () => useNavigation.setState({ screen: fromHash() }));
