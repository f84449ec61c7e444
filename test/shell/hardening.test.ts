// hardening.ts applied to stand-ins for Electron's app, session and web contents (the binary
// cannot run here): every navigation, redirect, <webview> and window.open is refused, only plain
// http(s) links reach the user's browser, and the session grants no permission but clipboard writes.
import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { rendererLocation } from '../../electron/shell/policy';
import { CONTENT_SECURITY_POLICY } from '../../shared/page-policy';

const openExternal = vi.fn(async () => undefined);
vi.mock('electron', () => ({ shell: { openExternal } }));

const { guardWebContents, hardenSession } = await import('../../electron/shell/hardening');

const renderer = rendererLocation('/opt/agent-console/out/renderer/index.html', 'linux');
const INDEX_URL = 'file:///opt/agent-console/out/renderer/index.html';

type WindowOpenHandler = (details: { url: string }) => { action: string };

function guarded() {
  const app = new EventEmitter();
  const blocked: string[] = [];
  guardWebContents(app as never, (what) => blocked.push(what));
  const contents = Object.assign(new EventEmitter(), {
    windowOpen: undefined as WindowOpenHandler | undefined,
    setWindowOpenHandler(handler: WindowOpenHandler) {
      this.windowOpen = handler;
    },
  });
  app.emit('web-contents-created', {}, contents);
  const fire = (name: string, extra: object = {}) => {
    const event = { preventDefault: vi.fn(), ...extra };
    contents.emit(name, event);
    return event.preventDefault;
  };
  return { contents, blocked, fire };
}

describe('guardWebContents', () => {
  it('refuses every navigation, sub-frame navigation, redirect and <webview>', () => {
    const { fire, blocked } = guarded();
    for (const url of [INDEX_URL, 'https://example.com/', 'file:///etc/passwd', 'javascript:alert(1)']) {
      expect(fire('will-navigate', { url }), url).toHaveBeenCalled();
      expect(fire('will-redirect', { url }), url).toHaveBeenCalled();
      expect(fire('will-frame-navigate', { url, isMainFrame: false }), url).toHaveBeenCalled();
    }
    expect(fire('will-attach-webview')).toHaveBeenCalled();
    expect(blocked.length).toBe(13);
  });

  it('denies every window.open; only plain http(s) links go to the browser', () => {
    const { contents, blocked } = guarded();
    openExternal.mockClear();
    for (const url of ['https://example.com/docs', 'http://example.com/']) {
      expect(contents.windowOpen?.({ url })).toEqual({ action: 'deny' });
    }
    expect(openExternal.mock.calls).toEqual([['https://example.com/docs'], ['http://example.com/']]);
    for (const url of [
      INDEX_URL,
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'https://user:pw@example.com/',
      'about:blank',
    ]) {
      expect(contents.windowOpen?.({ url }), url).toEqual({ action: 'deny' });
    }
    expect(openExternal).toHaveBeenCalledTimes(2);
    expect(blocked.length).toBe(6);
  });
});

describe('hardenSession', () => {
  function session() {
    const handlers: Record<string, (...args: never[]) => unknown> = {};
    const fake = {
      webRequest: {
        onBeforeRequest: (h: never) => (handlers.request = h),
        onHeadersReceived: (h: never) => (handlers.headers = h),
      },
      setPermissionRequestHandler: (h: never) => (handlers.permissionRequest = h),
      setPermissionCheckHandler: (h: never) => (handlers.permissionCheck = h),
      setDevicePermissionHandler: (h: never) => (handlers.device = h),
      on: (_name: string, h: never) => (handlers.download = h),
    };
    const blocked: string[] = [];
    hardenSession(fake as never, renderer, (what) => blocked.push(what));
    return { handlers: handlers as Record<string, (...args: unknown[]) => unknown>, blocked };
  }

  it('grants the page clipboard writes and refuses every other permission request and check', () => {
    const { handlers, blocked } = session();
    const ask = (permission: string, requestingUrl = INDEX_URL) => {
      let granted: boolean | undefined;
      handlers.permissionRequest?.({}, permission, (allowed: boolean) => (granted = allowed), {
        requestingUrl,
      });
      return granted;
    };
    expect(ask('clipboard-sanitized-write')).toBe(true);
    expect(ask('clipboard-sanitized-write', 'https://example.com/')).toBe(false);
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'clipboard-read',
      'openExternal',
      'hid',
    ]) {
      expect(ask(permission), permission).toBe(false);
      expect(handlers.permissionCheck?.({ getURL: () => INDEX_URL }, permission, '', {}), permission).toBe(
        false,
      );
    }
    expect(handlers.device?.()).toBe(false);
    expect(blocked).toContain('permission media');
  });

  it('cancels requests that are not the renderer’s own files, and sends the CSP header', () => {
    const { handlers } = session();
    const request = (url: string) => {
      let result: { cancel?: boolean } = {};
      handlers.request?.({ url }, (r: { cancel: boolean }) => (result = r));
      return result.cancel;
    };
    expect(request(INDEX_URL)).toBe(false);
    expect(request('https://example.com/x.js')).toBe(true);
    expect(request('file:///etc/passwd')).toBe(true);
    let headers: Record<string, string[]> = {};
    handlers.headers?.(
      { url: INDEX_URL, responseHeaders: {} },
      (r: { responseHeaders: Record<string, string[]> }) => {
        headers = r.responseHeaders;
      },
    );
    expect(headers['Content-Security-Policy']).toEqual([CONTENT_SECURITY_POLICY]);
  });
});
