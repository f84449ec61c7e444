// The console page's security policy, for whoever serves it: the desktop shell's session
// (electron/shell/hardening.ts) and the web host (electron/web-host/server.ts). Plain strings, so
// both import it from here rather than one from the other.

/**
 * renderer/index.html's meta tag: the policy wherever the page is loaded, even without headers.
 * frame-ancestors is not in it: Chromium ignores that directive in a meta tag and logs a console
 * error on every load; it is sent in the header only (CONTENT_SECURITY_POLICY).
 */
export const META_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** The header the desktop session and the web host send with the page: the meta policy, and no framing. */
export const CONTENT_SECURITY_POLICY = `${META_CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`;

/**
 * What a server sends with every answer of the page's origin: our CSP, no content sniffing, no
 * referrer. The desktop shell sends the CSP alone: its page is a file: URL, which Chromium never
 * sniffs and whose requests carry no referrer.
 */
export const PAGE_SECURITY_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;
