// The app's and the web host's processes stay up through a promise no one awaited that failed: the
// error is told (its secrets masked) and the console goes on. Node's default ends the process on an
// unhandled rejection; every loop of ours catches its own errors (health polls, monitors, synthetic
// checks, webhooks, history writes), and this is the net under them, for the next one we miss. The
// CLI has no such net: a command that fails says so and exits.
import { redactSecrets } from './redact';

export function keepRunningOnUnhandledRejection(report: (message: string) => void): void {
  process.on('unhandledRejection', (reason: unknown) => {
    const text = reason instanceof Error ? (reason.stack ?? reason.message) : String(reason);
    report(`An unexpected error was caught, and the console goes on: ${redactSecrets(text)}`);
  });
}
