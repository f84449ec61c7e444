// The last gate before anything leaves the process (docs/security.md, "Redaction"): bridge replies
// and events, the CLI's stdout and stderr, reports, webhook bodies, metrics, the files of the data
// folder. What a server sent was already redacted where the API client decoded it; this is defence
// in depth, so that a secret reaches no output whatever path produced it — and a server's control
// characters never reach a terminal raw.
import { redactSecrets, redactValue } from './redact';

/**
 * What a terminal acts on rather than shows: C0 controls but tab and line feed (a carriage return
 * rewrites the line), DEL, C1 (U+009B is CSI on some terminals), and the bidi overrides and isolates
 * that make text read as something else.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const TERMINAL_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Text for a file, a report or a request body: secrets masked. */
export function guardText(text: string): string {
  return redactSecrets(text);
}

/** A value for the bridge or a JSON document: every string and key masked, at any depth. */
export function guardValue<T>(value: T): T {
  return redactValue(value);
}

/**
 * Text for a terminal: secrets masked, and each unsafe character written as its `\u00XX` escape —
 * readable in plain output, and still valid inside a JSON string, so `--json` stays JSON.
 */
export function guardTerminal(text: string): string {
  return redactSecrets(text).replace(
    TERMINAL_UNSAFE,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Prometheus's text format: secrets masked, and control characters in label values replaced with
 * U+FFFD (an escape would be read as one by the scraper).
 */
export function guardMetrics(text: string): string {
  return redactSecrets(text).replace(TERMINAL_UNSAFE, '\uFFFD');
}

/**
 * Every write to these streams goes through `guardTerminal` from now on, whoever writes: the CLI's
 * own output, a library's warning, an error's message.
 */
export function guardProcessOutput(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    const write = stream.write.bind(stream) as (chunk: string, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      // A string's encoding argument no longer applies to the guarded text, which is UTF-8.
      const tail = typeof rest[0] === 'string' ? rest.slice(1) : rest;
      return write(guardTerminal(text), 'utf8', ...tail);
    }) as typeof stream.write;
  }
}
