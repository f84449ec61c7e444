// Waits for what a test expects to become true of a process or a server it cannot be told about:
// the probe is asked until it answers (or until time is up, with its last error in the message).
export async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  ms = 40_000,
): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > end)
      throw new Error(`timed out after ${ms} ms waiting for ${what}${last ? ` (${String(last)})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
