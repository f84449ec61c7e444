// What went wrong while the console opened — a settings or mock state file that could not be read
// and was set aside, say — shown in the window until dismissed, in the desktop app and the browser
// alike (before, the web host only printed it on its stderr).
import { useState } from 'react';

export function StartupWarnings({ warnings }: { warnings: readonly string[] }) {
  const [dismissed, setDismissed] = useState(false);
  if (dismissed || warnings.length === 0) return null;
  return (
    <section className="startup-warnings" role="alert" aria-label="Started with warnings">
      <h2>The console started, with {warnings.length === 1 ? 'a warning' : `${warnings.length} warnings`}</h2>
      <ul>
        {warnings.map((warning) => (
          <li key={warning}>{warning}</li>
        ))}
      </ul>
      <button type="button" className="secondary small" onClick={() => setDismissed(true)}>
        Dismiss
      </button>
    </section>
  );
}
