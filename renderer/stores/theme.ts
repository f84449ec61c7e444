// Light, Dark or System: the choice is kept in this browser's storage, and <html> always
// carries the theme in effect (`data-theme`), which the stylesheets and the charts follow.
import { create } from 'zustand';
import { THEME_EVENT } from '../components/theme-event';

export const THEME_CHOICES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

const KEY = 'agent-console.theme';
const systemDark = window.matchMedia('(prefers-color-scheme: dark)');

function stored(): ThemeChoice {
  try {
    const value = localStorage.getItem(KEY);
    return THEME_CHOICES.find((c) => c === value) ?? 'system';
  } catch {
    return 'system';
  }
}

export const useTheme = create<{ choice: ThemeChoice }>(() => ({ choice: stored() }));

function apply(): void {
  const { choice } = useTheme.getState();
  const dark = choice === 'dark' || (choice === 'system' && systemDark.matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  window.dispatchEvent(new Event(THEME_EVENT));
}

export function chooseTheme(choice: ThemeChoice): void {
  try {
    localStorage.setItem(KEY, choice);
  } catch {
    // Storage refused: the choice holds until the page reloads.
  }
  useTheme.setState({ choice });
  apply();
}

/** Before the first render, so the first paint is in the right theme. */
export function startTheme(): void {
  apply();
  systemDark.addEventListener('change', apply);
}
