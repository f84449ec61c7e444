// A screen that failed, in words, instead of a blank window: it stands in for that screen only
// (app.tsx), so the navigation, the profile and every other screen keep working.
import type { FallbackProps } from 'react-error-boundary';

/**
 * The browser could not fetch a chunk of the console's own code: Chromium, Firefox and Safari
 * word a failed `import()` differently, and Vite's loader words a stylesheet it could not load.
 */
function isLoadFailure(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|importing a module script failed|unable to preload css/i.test(message);
}

export function ScreenFailure({ error, resetErrorBoundary }: FallbackProps) {
  if (isLoadFailure(error)) {
    const advice = window.agentConsole
      ? 'Restart Agent Console; if this happens again, reinstall it.'
      : 'Is `npm run web` still running? Reload the page once it is.';
    return (
      <div className="error screen-failure" role="alert">
        <strong>This screen could not be loaded.</strong>
        <span>The console could not fetch its code. {advice}</span>
        <div className="actions">
          <button type="button" onClick={() => window.location.reload()}>
            Reload
          </button>
        </div>
      </div>
    );
  }
  return (
    <div className="error screen-failure" role="alert">
      <strong>This screen failed.</strong>
      <span>{error instanceof Error ? error.message : String(error)}</span>
      <div className="actions">
        <button type="button" onClick={resetErrorBoundary}>
          Try again
        </button>
      </div>
    </div>
  );
}
