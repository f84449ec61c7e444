// How the CLI speaks: human tables by default, JSON for scripts, and an exit code per error class.
import { ApiError } from '../core/api-error';
export { describeError } from '../core/api-error';
import { KeyVaultError } from '../core/key-vault';
import { ProfileError } from '../core/profiles';

/** Exit codes, by class of failure (documented in the README). */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 3,
  plan: 4,
  notFound: 5,
  rateLimited: 6,
  service: 7,
  network: 8,
  keychain: 9,
  interrupted: 130,
} as const;

/** A problem with what the user typed: exit 2. */
export class UsageError extends Error {}

export function exitCodeFor(error: unknown): number {
  if (error instanceof UsageError) return EXIT.usage;
  if (error instanceof KeyVaultError) return error.code === 'NO_KEYCHAIN' ? EXIT.keychain : EXIT.usage;
  if (error instanceof ProfileError) return EXIT.usage;
  if (error instanceof ApiError) {
    if (error.code === 'ABORTED') return EXIT.interrupted;
    if (error.code === 'NETWORK' || error.code === 'CLIENT_TIMEOUT') return EXIT.network;
    switch (error.status) {
      case 400:
        return EXIT.usage;
      case 401:
        return EXIT.auth;
      case 403:
        return EXIT.plan;
      case 404:
        return EXIT.notFound;
      case 429:
        return EXIT.rateLimited;
      default:
        return EXIT.service;
    }
  }
  return EXIT.failure;
}

export function table(rows: readonly object[], columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const cell = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
  const at = (row: object, column: string): unknown => (row as Record<string, unknown>)[column];
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(at(r, c)).length)));
  const line = (values: string[]): string =>
    values
      .map((v, i) => v.padEnd(widths[i] as number))
      .join('  ')
      .trimEnd();
  return [
    line(columns.map((c) => c.toUpperCase())),
    ...rows.map((r) => line(columns.map((c) => cell(at(r, c))))),
  ].join('\n');
}
