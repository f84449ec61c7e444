// What this console takes from a server, at most. A service — or anything answering at its address —
// can send a reply of any size, for any time, nested any deep; past these, the reply ends in an error
// the user can read, never in an exhausted or stopped process (docs/security.md, "A hostile server").

/** A reply read whole (every call but a streamed chat): its body, in bytes. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** A streamed chat reply, in bytes on the wire (a 1 MB reply in 20,000 chunks is about 2 MB). */
export const MAX_STREAM_BYTES = 32 * 1024 * 1024;

/** How deep a reply's JSON may nest; the spec's deepest is 3. */
export const MAX_JSON_DEPTH = 64;

/** The longest a `Retry-After` is honoured: a key's queue waits no longer than this. */
export const MAX_RETRY_AFTER_S = 600;

/** "10 MB", for messages. */
export function megabytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}

/** Whether `value` nests deeper than `max` arrays and objects; walked without recursion. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== 'object' || node === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(node)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
