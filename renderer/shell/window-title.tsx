// The window's title follows the worst monitor: "Agent Console" while all is well,
// "Unhealthy: Production — Agent Console" when not. In the desktop app the window takes the page's
// title; in a browser it is the tab's. The tray's colour follows the same status (the shell).
import { useEffect } from 'react';
import { WATCH_SEVERITY, WATCH_WORDS } from '../../shared/monitor';
import { useMonitors } from '../data/monitors';

export function WindowTitle() {
  const monitors = useMonitors().data;
  useEffect(() => {
    const worst = [...(monitors ?? [])].sort(
      (a, b) => WATCH_SEVERITY[b.status] - WATCH_SEVERITY[a.status],
    )[0];
    const bad = worst && WATCH_SEVERITY[worst.status] > WATCH_SEVERITY.healthy;
    document.title = bad ? `${WATCH_WORDS[worst.status]}: ${worst.name} — Agent Console` : 'Agent Console';
  }, [monitors]);
  return null;
}
