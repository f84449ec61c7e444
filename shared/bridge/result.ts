// What a call answers over either transport: its value, or a failure in words and codes.

/** What the renderer sees of any failure: words and codes, never a stack trace. */
export interface BridgeError {
  code: string;
  message: string;
  status?: number;
  requestId?: string;
  retryAfterS?: number;
  partial?: string;
}

export type BridgeResult<T> = { ok: true; value: T } | { ok: false; error: BridgeError };
