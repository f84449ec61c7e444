// log:… — every request the console made, redacted, with export and "copy as curl".
import { z } from 'zod';
import type { RequestLogEntry } from '../request-log-entry';
import { id, none, returns, text, type DomainCalls } from './schemas';

/** The largest HAR file the Log and the Tests screen import (docs/security.md, "Imported curl and HAR"). */
export const MAX_HAR_CHARS = 10 * 1024 * 1024;
/** Said by the core for a longer text, and by the page before it sends a larger file. */
export const HAR_TOO_LARGE_MESSAGE = `The file is over ${MAX_HAR_CHARS / (1024 * 1024)} MB, the most a HAR import reads: export fewer requests.`;

const harFile = z.strictObject({ fileName: text(255), text: text(MAX_HAR_CHARS) });

export const LOG_CALLS = {
  'log:list': { input: none, output: returns<RequestLogEntry[]>() },
  'log:clear': { input: none, output: returns<{ cleared: true }>() },
  'log:export': {
    input: z.strictObject({ format: z.enum(['json', 'har']) }),
    output: returns<{ fileName: string; text: string }>(),
  },
  /** One entry whole: the live list (log:added) carries no bodies, to keep the renderer small. */
  'log:get': { input: z.strictObject({ id }), output: returns<RequestLogEntry>() },
  /** The entries whose bodies hold the text (the live rows carry none): the Log's text filter. */
  'log:search': { input: z.strictObject({ text: text(200) }), output: returns<{ ids: string[] }>() },
  'log:curl': { input: z.strictObject({ id }), output: returns<{ command: string }>() },
  /** A HAR file's requests added to the log, marked as imported from it; credentials dropped. */
  'log:importHar': { input: harFile, output: returns<HarImported>() },
} as const satisfies DomainCalls<'log'>;

export interface HarImported {
  imported: number;
  /** Entries of the file that were not requests the log can show. */
  skipped: number;
  firstProblem?: string;
}

export interface LogEvents {
  'log:added': RequestLogEntry;
  'log:cleared': Record<string, never>;
}
