// The shell's rules for what the renderer may load, use and ask for (docs/security.md), tested where
// Electron cannot run: hardening.ts and ipc.ts only apply them.
import { describe, expect, it } from 'vitest';
import {
  isAllowedPermission,
  isAllowedRequest,
  isRendererDocument,
  rendererLocation,
  isExternalLink,
} from '../../electron/shell/policy';

const linux = rendererLocation('/home/ada/agent console/out/renderer/index.html', 'linux');
const index = 'file:///home/ada/agent%20console/out/renderer/index.html';

describe('isRendererDocument', () => {
  it('accepts our index, with any route or query', () => {
    expect(isRendererDocument(index, linux)).toBe(true);
    expect(isRendererDocument(`${index}#/keys`, linux)).toBe(true);
    expect(isRendererDocument(`${index}?x=1`, linux)).toBe(true);
    expect(
      isRendererDocument('file://localhost/home/ada/agent%20console/out/renderer/index.html', linux),
    ).toBe(true);
  });

  it('refuses other pages, other schemes, other hosts and disguised paths', () => {
    for (const url of [
      'file:///home/ada/agent%20console/out/renderer/other.html',
      'file:///home/ada/agent%20console/out/renderer/INDEX.html',
      'file:///tmp/index.html',
      'file://evil.example/home/ada/agent%20console/out/renderer/index.html',
      'https://example.com/home/ada/agent%20console/out/renderer/index.html',
      'file:///home/ada/agent%20console/out/renderer/x%2F..%2Findex.html',
      'about:blank',
      'not a url',
      '',
    ]) {
      expect(isRendererDocument(url, linux), url).toBe(false);
    }
  });

  it('compares case-blind where the file system is (macOS, Windows)', () => {
    const mac = rendererLocation(
      '/Applications/Agent Console.app/Contents/out/renderer/index.html',
      'darwin',
    );
    expect(
      isRendererDocument('file:///applications/agent%20console.app/contents/out/renderer/index.html', mac),
    ).toBe(true);
  });
});

describe('isAllowedRequest', () => {
  it('lets the renderer load its own files, data:, blob: and DevTools', () => {
    for (const url of [
      index,
      'file:///home/ada/agent%20console/out/renderer/assets/index-abc123.js',
      'file:///home/ada/agent%20console/out/renderer/assets/deep/chart.js.map',
      'data:image/png;base64,AAAA',
      'blob:file:///0b7d3c1e-1111-2222-3333-444455556666',
      'devtools://devtools/bundled/devtools_app.html',
    ]) {
      expect(isAllowedRequest(url, linux), url).toBe(true);
    }
  });

  it('refuses anything remote and any other local file', () => {
    for (const url of [
      'https://example.com/x.js',
      'http://127.0.0.1:8443/api/v1/agents',
      'wss://example.com/socket',
      'file:///etc/passwd',
      'file:///home/ada/agent%20console/out/electron/main.js',
      'file:///home/ada/agent%20console/out/renderer-evil/x.js',
      'file:///home/ada/agent%20console/out/renderer/..%2F..%2Fsecrets.json',
      'file:///home/ada/agent%20console/out/renderer/%2e%2e/electron/main.js',
      'chrome://settings',
      'ftp://example.com/x',
    ]) {
      expect(isAllowedRequest(url, linux), url).toBe(false);
    }
  });
});

describe('isAllowedPermission', () => {
  it('grants only clipboard writes, and only to our page', () => {
    expect(isAllowedPermission('clipboard-sanitized-write', index, linux)).toBe(true);
    expect(isAllowedPermission('clipboard-sanitized-write', 'https://example.com/', linux)).toBe(false);
    for (const permission of [
      'clipboard-read',
      'media',
      'geolocation',
      'notifications',
      'openExternal',
      'midi',
      'midiSysex',
      'pointerLock',
      'fullscreen',
      'display-capture',
      'idle-detection',
      'fileSystem',
      'hid',
      'serial',
      'usb',
      'storage-access',
      'window-management',
    ]) {
      expect(isAllowedPermission(permission, index, linux), permission).toBe(false);
    }
  });
});

describe('isExternalLink', () => {
  it('only plain http(s) links go to the browser', () => {
    expect(isExternalLink('https://example.com/docs?q=1')).toBe(true);
    expect(isExternalLink('http://example.com')).toBe(true);
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'https://user:pw@example.com',
      'data:text/html,x',
      'not a url',
    ]) {
      expect(isExternalLink(url), url).toBe(false);
    }
  });
});
