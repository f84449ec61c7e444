// How a call of the API client ends without a reply: its own deadline (the whole call, a stream's
// reading included), the caller's cancel, a certificate not trusted, or the network. Each is told as
// its own ApiError code, so the user reads "no answer within 15 seconds" or "the certificate is not
// trusted" rather than "could not reach the service".
import { errors as undiciErrors } from './http-agent';
import { ApiError } from './api-error';
import { probeClientCertRefusal, type ClientCertificateTls } from './client-certificate';
import { trustFor } from './trust-store';
import { untrustedCertificateCode } from './server-certificate';

/** Why the client itself ended a call: its time was up. */
const DEADLINE = Symbol('deadline');

/** An AbortSignal that fires when the caller's does, or `ms` from now (its reason then DEADLINE). */
export function withDeadline(
  user: AbortSignal | undefined,
  ms: number,
): { signal: AbortSignal; controller: AbortController; clear: () => void } {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(user?.reason);
  if (user?.aborted) onAbort();
  user?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(DEADLINE), ms);
  return {
    signal: controller.signal,
    controller,
    clear: () => {
      clearTimeout(timer);
      user?.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * Names a failure that produced no HTTP reply: CLIENT_TIMEOUT, ABORTED or NETWORK (naming
 * `baseUrl`). `own` is the call's signal from withDeadline; an ApiError passes as it is.
 */
export function classifyFailure(
  error: unknown,
  call: {
    user: AbortSignal | undefined;
    own?: AbortSignal;
    timeoutMs: number;
    baseUrl: string;
    /** The proxy the call went through, as shown (proxy.ts). */
    proxy?: string | undefined;
  },
): ApiError {
  if (error instanceof ApiError) return error;
  const { user, own, timeoutMs } = call;
  const timedOut =
    own?.reason === DEADLINE ||
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError;
  if (timedOut) {
    const seconds = Math.round(timeoutMs / 1000);
    return new ApiError({
      status: 0,
      code: 'CLIENT_TIMEOUT',
      message: `No answer from the service within ${seconds} second${seconds === 1 ? '' : 's'}.`,
      cause: error,
    });
  }
  if (user?.aborted || own?.aborted) {
    return new ApiError({
      status: 0,
      code: 'ABORTED',
      message: 'The request was cancelled.',
      cause: error,
    });
  }
  // The service was reached; it is its certificate that this console does not trust.
  const untrusted = untrustedCertificateCode(error);
  if (untrusted) {
    return new ApiError({
      status: 0,
      code: 'UNTRUSTED_CERT',
      message: `The service's certificate is not trusted (${untrusted}), so nothing was sent to ${call.baseUrl}. Add its issuer's CA certificate to the profile (Profiles → Edit).`,
      cause: error,
    });
  }
  // undici's words when the proxy answers CONNECT with anything but 200.
  const refused = /^Proxy response \((\d{3})\) !== 200/.exec((error as Error).message ?? '');
  if (call.proxy && refused) {
    const status = Number(refused[1]);
    const why =
      status === 407
        ? 'it asks for a user name and password, and those in the proxy setting were missing or refused'
        : `it answered HTTP ${status}`;
    return new ApiError({
      status: 0,
      code: 'PROXY_REFUSED',
      message: `The proxy ${call.proxy} did not connect this console to ${call.baseUrl}: ${why}.`,
      cause: error,
    });
  }
  const detail = (error as { code?: string; message?: string }).code ?? (error as Error).message;
  return new ApiError({
    status: 0,
    code: 'NETWORK',
    message: call.proxy
      ? `Could not reach the service at ${call.baseUrl} through the proxy ${call.proxy} (${detail}).`
      : `Could not reach the service at ${call.baseUrl} (${detail}).`,
    cause: error,
  });
}

/** How long a probe that found no certificate check is believed: retries of one call ask once. */
const CLIENT_CERT_PROBE_QUIET_MS = 60_000;

/**
 * Names a NETWORK failure that may be a service's client-certificate check: it closed a direct TLS
 * connection before answering ("other side closed"). One handshake more tells (client-certificate.ts);
 * anything else passes as it is. Through a proxy the tunnel hides this: the failure stays NETWORK.
 * One per API client: once a handshake has shown the closes are not the certificate check, the
 * retries that follow are not held up by another one for a while.
 */
export class ClientCertReason {
  private quietUntil = -Infinity;

  constructor(private readonly now: () => number) {}

  async of(
    failure: ApiError,
    error: unknown,
    call: {
      baseUrl: string;
      proxy?: unknown;
      ca?: string | undefined;
      clientCert?: (() => Promise<ClientCertificateTls>) | undefined;
    },
  ): Promise<ApiError> {
    const closed =
      (error as { code?: string }).code === 'UND_ERR_SOCKET' &&
      /other side closed/.test((error as Error).message);
    if (failure.code !== 'NETWORK' || call.proxy || !closed) return failure;
    if (this.now() < this.quietUntil) return failure;
    const clientCert = await call.clientCert?.().catch(() => undefined);
    const verdict = await probeClientCertRefusal(call.baseUrl, {
      clientCertShown: clientCert !== undefined,
      trust: trustFor(call.ca, clientCert),
    }).catch(() => undefined);
    if (verdict === 'required') {
      return new ApiError({
        status: 0,
        code: 'CLIENT_CERT_REQUIRED',
        message: `The service at ${call.baseUrl} asked for a client certificate and closed the connection without one, so nothing was sent. Add the certificate it expects to the profile (Profiles → Edit → Client certificate).`,
        cause: error,
      });
    }
    if (verdict === 'refused') {
      return new ApiError({
        status: 0,
        code: 'CLIENT_CERT_REFUSED',
        message: `The service at ${call.baseUrl} refused the client certificate of this profile (not issued by a CA it trusts, expired or revoked), so nothing was sent. Ask whoever issued it, or choose another in Profiles → Edit.`,
        cause: error,
      });
    }
    this.quietUntil = this.now() + CLIENT_CERT_PROBE_QUIET_MS;
    return failure;
  }
}
