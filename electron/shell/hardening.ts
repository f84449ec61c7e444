// The locks on the renderer beyond its webPreferences: the CSP as a response header too, no request
// that is not the renderer's own files, no web permission but clipboard writes, no navigation, no
// new windows, no <webview>. The rules themselves are in policy.ts, the page's CSP in
// shared/page-policy.ts.
import { shell, type App, type Session } from 'electron';
import { CONTENT_SECURITY_POLICY } from '../../shared/page-policy';
import { isAllowedPermission, isAllowedRequest, isExternalLink, type RendererLocation } from './policy';

/** Call before the first window opens. */
export function hardenSession(
  session: Session,
  renderer: RendererLocation,
  onBlocked: (what: string) => void,
): void {
  session.webRequest.onBeforeRequest((details, callback) => {
    const allowed = isAllowedRequest(details.url, renderer);
    if (!allowed) onBlocked(`request to ${details.url.slice(0, 200)}`);
    callback({ cancel: !allowed });
  });
  // file: pages get their CSP from the meta tag; this covers anything served with headers.
  // electronegativity: CSP_GLOBAL_CHECK — it reads only a string literal here, so "Failed to
  // parse CSP" means it could not see CONTENT_SECURITY_POLICY (shared/page-policy.ts); the policy
  // itself is parsed and evaluated with electronegativity's CSP evaluator in
  // test/shared/page-policy.test.ts.
  session.webRequest.onHeadersReceived((details, callback) => {
    if (details.url.startsWith('devtools:')) return callback({});
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });
  });
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    const allowed = isAllowedPermission(permission, details.requestingUrl, renderer);
    if (!allowed) onBlocked(`permission ${permission}`);
    callback(allowed);
  });
  // Checks may come without the frame's URL; the page's own URL stands in for it then.
  session.setPermissionCheckHandler((contents, permission, _origin, details) =>
    isAllowedPermission(permission, details.requestingUrl ?? contents?.getURL() ?? '', renderer),
  );
  // No USB, HID, serial or Bluetooth devices for the page.
  session.setDevicePermissionHandler(() => false);
  session.on('will-download', (event, item) => {
    // Exports are made by the page as blob: URLs; anything else is refused.
    if (!item.getURL().startsWith('blob:')) event.preventDefault();
  });
}

/** Every web contents the app ever creates: no navigation, no window.open, no <webview>. */
export function guardWebContents(app: App, onBlocked: (what: string) => void): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event) => {
      onBlocked(`navigation to ${event.url.slice(0, 200)}`);
      event.preventDefault();
    });
    contents.on('will-frame-navigate', (event) => {
      if (event.isMainFrame) return; // will-navigate handles it
      onBlocked(`frame navigation to ${event.url.slice(0, 200)}`);
      event.preventDefault();
    });
    contents.on('will-redirect', (event) => {
      onBlocked(`redirect to ${event.url.slice(0, 200)}`);
      event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => {
      onBlocked('a <webview>');
      event.preventDefault();
    });
    // No window ever opens in the app. A reply's link goes to the user's browser: the renderer has
    // already asked the user to confirm it; only plain http(s) links pass.
    contents.setWindowOpenHandler(({ url }) => {
      // electronegativity: OPEN_EXTERNAL_JS_CHECK — only plain http(s) URLs without credentials
      // (isExternalLink), after the renderer's own confirmation; never file:, smb: or custom schemes.
      if (isExternalLink(url)) void shell.openExternal(url);
      else onBlocked(`window.open of ${url.slice(0, 200)}`);
      return { action: 'deny' };
    });
  });
}
