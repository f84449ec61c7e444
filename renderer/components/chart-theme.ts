// Colours for charts, read from CSS custom properties: SVG presentation attributes cannot use
// var(), and the values change with the colour scheme, so a hook re-reads them when it does.
import { useEffect, useState } from 'react';
import { THEME_EVENT } from './theme-event';

export interface ChartTheme {
  series1: string;
  series2: string;
  series3: string;
  grid: string;
  text: string;
  ok: string;
  warn: string;
  bad: string;
  muted: string;
}

function read(): ChartTheme {
  const style = getComputedStyle(document.documentElement);
  const value = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    series1: value('--chart-1', '#2451c9'),
    series2: value('--chart-2', '#0f7b8a'),
    series3: value('--chart-3', '#8a4fd0'),
    grid: value('--chart-grid', '#e3e6ed'),
    text: value('--chart-text', '#566074'),
    ok: value('--ok', '#157a3a'),
    warn: value('--warn', '#a05a00'),
    bad: value('--bad', '#b42318'),
    muted: value('--muted', '#566074'),
  };
}

export function useChartTheme(): ChartTheme {
  const [theme, setTheme] = useState(read);
  useEffect(() => {
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    const update = () => setTheme(read());
    query.addEventListener('change', update);
    window.addEventListener(THEME_EVENT, update);
    return () => {
      query.removeEventListener('change', update);
      window.removeEventListener(THEME_EVENT, update);
    };
  }, []);
  return theme;
}
