// One API call as the request log records it. The API client produces these;
// the request log stores, redacts and exports them.

export interface RateHeaders {
  limit?: number;
  remaining?: number;
  /** Unix seconds. */
  reset?: number;
  retryAfterS?: number;
}

export interface RequestLogEntry {
  id: string;
  /** Epoch milliseconds when the request started. */
  startedAt: number;
  durationMs: number;
  profileId: string;
  /** The key's id in the vault (never its secret). */
  keyId: string;
  method: string;
  /** Full URL, without credentials. */
  url: string;
  /** The proxy it went through (scheme, host and port, never credentials); none: direct. */
  proxy?: string;
  /** Request headers as sent, with Authorization already masked by the client. */
  requestHeaders: Record<string, string>;
  /** Request body as text (JSON), if any. */
  requestBody?: string;
  /** 0 when no HTTP response arrived (network failure, abort before headers). */
  status: number;
  responseHeaders: Record<string, string>;
  /** Response body as text, possibly truncated; for streams, the raw event text received. */
  responseBody?: string;
  responseBytes: number;
  requestId?: string;
  rate: RateHeaders;
  /** Normalised error code (e.g. RATE_LIMITED, INVALID_KEY, NETWORK, TIMEOUT, ABORTED). */
  errorCode?: string;
  streamed: boolean;
  /** The HAR file it was imported from; absent for a request this console made. */
  imported?: string;
}

/**
 * An entry as the renderer's live list keeps it: what the Log's table, filter and the playground's
 * inspector show. Headers and bodies are read with log:get for the one entry opened, so a long
 * session's calls do not stay in the page whole.
 */
export type RequestLogRow = Omit<
  RequestLogEntry,
  'requestBody' | 'responseBody' | 'requestHeaders' | 'responseHeaders'
>;
