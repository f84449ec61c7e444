// What the desktop shell lets the renderer do, as plain functions (no `electron` import) so the
// rules are unit-tested here even where Electron cannot run (docs/security.md). hardening.ts and
// ipc.ts apply them.
import { pathToFileURL } from 'node:url';

/** electron-builder.yml's appId, the installer shortcut's AppUserModelID on Windows (builder-config.test.ts). */
export const APP_USER_MODEL_ID = 'dev.agentconsole.app';

/** Where the built renderer lives, as file: URL paths (decoded), compared case-blind where the OS is. */
export interface RendererLocation {
  readonly indexPath: string;
  readonly dirPath: string;
  readonly caseInsensitive: boolean;
}

export function rendererLocation(
  indexFile: string,
  platform: NodeJS.Platform = process.platform,
): RendererLocation {
  const caseInsensitive = platform === 'win32' || platform === 'darwin';
  const fold = (path: string) => (caseInsensitive ? path.toLowerCase() : path);
  const indexPath = fold(decodeURIComponent(pathToFileURL(indexFile).pathname));
  return { indexPath, dirPath: indexPath.slice(0, indexPath.lastIndexOf('/')), caseInsensitive };
}

/**
 * The decoded path of a local file: URL, or undefined for anything else (another scheme, a host,
 * an encoded slash or a `..` that would step out once decoded). Comparing decoded paths makes
 * Chromium's and Node's percent-encoding choices agree.
 */
function localFilePath(url: string, caseInsensitive: boolean): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'file:' || (parsed.host !== '' && parsed.host !== 'localhost')) return undefined;
  if (/%2f|%5c/i.test(parsed.pathname)) return undefined;
  const path = decode(parsed.pathname);
  if (path === undefined || /(^|\/)\.\.(\/|$)/.test(path) || path.includes('\\')) return undefined;
  return caseInsensitive ? path.toLowerCase() : path;
}

function decode(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

/** True for our own renderer document (any query or #route), the only page allowed to use the bridge. */
export function isRendererDocument(url: string, renderer: RendererLocation): boolean {
  return localFilePath(url, renderer.caseInsensitive) === renderer.indexPath;
}

/**
 * What the session may load: the renderer's own files, data: and blob: URLs the page makes, and
 * DevTools (dev builds only have it). Nothing remote, no other local file.
 */
export function isAllowedRequest(url: string, renderer: RendererLocation): boolean {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'data' || scheme === 'blob' || scheme === 'devtools') return true;
  if (scheme !== 'file') return false;
  const path = localFilePath(url, renderer.caseInsensitive);
  return path !== undefined && path.startsWith(`${renderer.dirPath}/`);
}

/** Web permissions the renderer may have: writing to the clipboard (copy as curl), from our page only. */
export function isAllowedPermission(
  permission: string,
  requestingUrl: string,
  renderer: RendererLocation,
): boolean {
  return permission === 'clipboard-sanitized-write' && isRendererDocument(requestingUrl, renderer);
}

/**
 * A link the renderer may open in the user's browser (after its own confirmation): plain http(s),
 * no credentials in it. Everything else a window.open asks for is refused.
 */
export function isExternalLink(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (
      (parsed.protocol === 'https:' || parsed.protocol === 'http:') && !parsed.username && !parsed.password
    );
  } catch {
    return false;
  }
}
