// Any failure, as a person reads it: the message, then the code and request id for a support
// ticket. Never a stack trace.
import type { BridgeError } from '../../shared/bridge';
import { BridgeFailure } from '../../shared/bridge-api';

export function asBridgeError(error: unknown): BridgeError {
  if (error instanceof BridgeFailure) return error.error;
  if (typeof error === 'object' && error !== null && 'code' in error && 'message' in error) {
    return error as BridgeError;
  }
  return { code: 'UNEXPECTED', message: error instanceof Error ? error.message : String(error) };
}

export function ErrorMessage({ error, title }: { error: unknown; title?: string }) {
  const e = asBridgeError(error);
  return (
    <div className="error" role="alert">
      {title && <strong>{title} </strong>}
      <span>{e.message}</span>
      <span className="error-meta">
        <code>{e.code}</code>
        {e.status ? <> · HTTP {e.status}</> : null}
        {e.requestId ? (
          <>
            {' '}
            · request <code>{e.requestId}</code>
          </>
        ) : null}
      </span>
    </div>
  );
}
