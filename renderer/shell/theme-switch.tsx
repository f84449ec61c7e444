// The header's Light / Dark / System switch.
import { chooseTheme, THEME_CHOICES, useTheme, type ThemeChoice } from '../stores/theme';

const WORDS: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };

export function ThemeSwitch() {
  const choice = useTheme((s) => s.choice);
  return (
    <label className="theme-switch">
      <span className="muted">Theme</span>
      <select value={choice} onChange={(e) => chooseTheme(e.target.value as ThemeChoice)}>
        {THEME_CHOICES.map((c) => (
          <option key={c} value={c}>
            {WORDS[c]}
          </option>
        ))}
      </select>
    </label>
  );
}
