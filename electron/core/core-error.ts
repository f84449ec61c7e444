// The one kind of failure the core reports about itself (as opposed to the service's ApiError): a
// stable code a front end can act on and words a person can read. The bridge passes both to the
// renderer and the CLI maps codes to exit codes, so "no profile is active" reaches the user as
// that, never as an internal error.
import { redactSecrets } from './redact';

/** Codes of conditions the user can meet and fix; each subclass narrows them for its part. */
export type CoreErrorCode =
  | 'NO_PROFILE'
  | 'PROFILE_NOT_FOUND'
  | 'NO_KEY_FOR_PROFILE'
  | 'KEY_IN_USE'
  | 'NOT_FOUND'
  | 'BAD_INPUT'
  | 'MOCK_UNAVAILABLE'
  | 'KEYCHAIN_UNAVAILABLE'
  | (string & {});

export class CoreError extends Error {
  override readonly name: string = 'CoreError';
  constructor(
    readonly code: CoreErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    // Masked here, once, for every kind of core error.
    super(redactSecrets(message), options);
  }
}
