// A reader that stops early (`| head -c 100`, `| less` quit at once, `| grep -m1`) closes the pipe
// the CLI writes to; the next write fails with EPIPE. That is the reader's "enough", not an error:
// the CLI stops what it was doing and exits 0 with nothing more said, as git and ripgrep do
// (docs/architecture.md, electron/cli/).
export interface ClosedOutput {
  /** True once stdout or stderr has no reader left. */
  readonly closed: boolean;
  /** Stops watching. */
  stop(): void;
}

/** Watches stdout and stderr for a closed pipe; on the first, calls `onClosed` once. */
export function watchClosedOutput(
  onClosed: () => void,
  streams: readonly NodeJS.WriteStream[] = [process.stdout, process.stderr],
): ClosedOutput {
  const state = {
    closed: false,
    stop: () => {
      for (const stream of streams) stream.removeListener('error', onError);
    },
  };
  function onError(error: NodeJS.ErrnoException): void {
    if (error.code !== 'EPIPE') throw error;
    if (state.closed) return;
    state.closed = true;
    onClosed();
    // The command was asked to stop; one that does not within a moment is ended all the same.
    setTimeout(() => process.exit(0), 2_000).unref();
  }
  for (const stream of streams) stream.on('error', onError);
  return state;
}
