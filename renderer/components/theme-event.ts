/** Fired on window when the theme in effect may have changed: what follows it (the charts) reads it again. */
export const THEME_EVENT = 'agent-console-theme';
