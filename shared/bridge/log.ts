// log:… — every request the console made, redacted, with export and "copy as curl".
import { z } from 'zod';
import type { RequestLogEntry } from '../request-log-entry';
import { id, none, returns, text, type DomainCalls } from './schemas';

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
} as const satisfies DomainCalls<'log'>;

export interface LogEvents {
  'log:added': RequestLogEntry;
  'log:cleared': Record<string, never>;
}
