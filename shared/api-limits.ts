// The service's limits and wire constants with no zod in them, so the renderer can check a draft
// without loading the schema library. shared/api.ts re-exports them.

/** Spec §4: every path begins with it. */
export const API_PREFIX = '/api/v1';
/** Spec §8: 100KB, counted in UTF-8 bytes (docs/security.md). */
export const MAX_MESSAGE_BYTES = 100 * 1024;
export const MAX_SESSION_ID_LENGTH = 128;
export const SESSION_ID_PATTERN = /^[A-Za-z0-9]{1,128}$/;
/** The longest thread title the mock takes, in characters (the spec gives none). */
export const MAX_THREAD_TITLE_LENGTH = 200;
/** docs/decisions.md: 3 alphanumerics + `_` + 32 alphanumerics; never a fixed prefix. */
export const API_KEY_PATTERN = /^[A-Za-z0-9]{3}_[A-Za-z0-9]{32}$/;
/** The data of the SSE frame that ends a stream. */
export const STREAM_DONE = '[DONE]';
