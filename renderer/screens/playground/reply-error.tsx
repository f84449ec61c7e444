// A failed reply, explained where it happened: what went wrong in plain words, the code and
// request id for a support ticket, and what the user can do next (retry, wait out the rate limit,
// fix the key). The service's own words follow ours when they add something.
import type { BridgeError } from '../../../shared/bridge';
import { useNow } from '../../components/use-now';
import { useRate } from '../../stores/live';
import { useNavigation } from '../../stores/navigation';
import { retry, sendWhenAllowed } from './composer-actions';
import type { ReplyTurn } from './playground-store';

/** Our words for each code (spec §7 and the client's own codes). */
function explain(error: BridgeError, agent: string | undefined): string {
  const who = agent ? `The agent “${agent}”` : 'The default agent';
  switch (error.code) {
    case 'AGENT_NOT_FOUND':
      return `${who} does not exist or is not deployed, so the service could not deliver the message.`;
    case 'AGENT_ERROR':
      return `${who} had an internal error while answering. Try again, or choose another agent.`;
    case 'TIMEOUT':
      return `${who} did not answer within the service’s 60 seconds, so the service gave up.`;
    case 'CLIENT_TIMEOUT':
      return 'The service did not answer in time, so the console stopped waiting.';
    case 'RATE_LIMITED':
      return 'This key has used all the requests its rate limit allows for now, so the service refused this one.';
    case 'PLAN_REQUIRED':
      return 'The account of this key has no active Pro or Ultra plan, which chat requires.';
    case 'INVALID_KEY':
      return 'The service refused the key: it is missing, malformed or revoked.';
    case 'STREAM_ERROR':
      return 'The stream broke part-way with an error from the service. What arrived before is kept above.';
    case 'STREAM_INCOMPLETE':
      return 'The connection closed before the reply finished ([DONE] never arrived). What arrived is kept above.';
    case 'NETWORK':
      return 'The service could not be reached. Check the profile’s base URL and your connection.';
    case 'UNTRUSTED_CERT':
      return 'The service was reached, but its certificate is not trusted: add its issuer’s CA to the profile on the Profiles screen.';
    case 'BAD_REQUEST':
      return 'The service refused the message as invalid.';
    case 'INVALID_RESPONSE':
      return 'The service answered with something that does not match its spec.';
    case 'PARTIAL':
      return 'This reply broke off before it finished. What arrived is kept above.';
    case 'FAILED':
      return 'This message got no reply.';
    default:
      return 'The message could not be sent.';
  }
}

function RateLimitCountdown({ reply, error }: { reply: ReplyTurn; error: BridgeError }) {
  const pausedUntil = useRate((s) => s.state?.pausedUntil);
  const failedAt = reply.failedAt ?? Date.now();
  // The service's Retry-After, or the key's pause if the limiter (doubling after repeated 429s) waits longer.
  const allowedAt = Math.max(failedAt + (error.retryAfterS ?? 1) * 1000, pausedUntil ?? 0);
  const now = useNow(true, 250);
  const left = Math.max(0, Math.ceil((allowedAt - now) / 1000));
  return (
    <div className="pg-countdown" role="timer" aria-live="off" data-testid="rate-countdown">
      {left > 0 ? (
        <span>
          You can send again in <strong>{left} s</strong>.
        </span>
      ) : (
        <span>You can send again now.</span>
      )}
      <button type="button" onClick={() => sendWhenAllowed(reply.id, allowedAt)}>
        Send when allowed
      </button>
    </div>
  );
}

/** Codes the console gives itself (no reply from the service to quote): our words say it all. */
const OUR_OWN_CODES = new Set(['STREAM_INCOMPLETE', 'PARTIAL']);

export function ReplyError({ reply }: { reply: ReplyTurn }) {
  const error = reply.error;
  if (!error) return null;
  const words = explain(error, reply.request.agent);
  // The service's message, when it is not just our words again.
  const theirs =
    error.message && !OUR_OWN_CODES.has(error.code) && !words.includes(error.message)
      ? error.message
      : undefined;
  return (
    <div className="error pg-error" role="alert" data-code={error.code}>
      <p className="pg-error-words">{words}</p>
      {theirs ? <p className="pg-error-theirs">“{theirs}”</p> : null}
      <p className="error-meta">
        <code>{error.code}</code>
        {/* A stream that broke had answered 200; the status would only mislead. */}
        {error.status && error.status !== 200 ? <> · HTTP {error.status}</> : null}
        {error.requestId ? (
          <>
            {' '}
            · request <code>{error.requestId}</code>
          </>
        ) : null}
      </p>
      {error.code === 'RATE_LIMITED' && reply.status === 'failed' ? (
        <RateLimitCountdown reply={reply} error={error} />
      ) : null}
      <div className="actions">
        {reply.status === 'failed' ? (
          <button type="button" className="secondary" onClick={() => retry(reply.id)}>
            {error.code === 'RATE_LIMITED' ? 'Retry now' : 'Retry'}
          </button>
        ) : null}
        {error.code === 'INVALID_KEY' ? (
          <button type="button" className="secondary" onClick={() => useNavigation.getState().go('Keys')}>
            Open Keys
          </button>
        ) : null}
      </div>
    </div>
  );
}
