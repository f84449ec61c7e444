// The built renderer as the web host serves it: read into memory once, when the host starts, so a
// request is answered with one write even while the core is still opening on the same thread
// (streamed from disk, the first screen's 280 KB script took 60–100 ms to arrive while the
// core's start held the event loop between its chunks). The renderer is built before the host
// starts and does not change while it runs. Source maps, which only the browser's developer tools
// ask for, are read when asked.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export interface RendererFile {
  body: Buffer;
  contentType: string;
}

/** Every file under `dir`, as URL paths ('/assets/index-….js') to their place on disk. */
function listFiles(dir: string, prefix = ''): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      for (const [url, file] of listFiles(path, `${prefix}/${entry.name}`)) files.set(url, file);
    } else if (entry.isFile()) {
      files.set(`${prefix}/${entry.name}`, path);
    }
  }
  return files;
}

export class RendererFiles {
  private readonly onDisk: Map<string, string>;
  private readonly inMemory = new Map<string, RendererFile>();

  constructor(dir: string) {
    const index = join(dir, 'index.html');
    if (!existsSync(index)) {
      throw new Error(`The renderer is not built (${index} is missing): run \`npm run build\`.`);
    }
    this.onDisk = listFiles(dir);
    for (const [url, file] of this.onDisk) {
      if (!url.endsWith('.map'))
        this.inMemory.set(url, { body: readFileSync(file), contentType: typeOf(url) });
    }
  }

  /**
   * The file at a request's path (its query ignored; '/' is index.html), or undefined: only files
   * that were in the folder at start are served, so no path can reach outside it.
   */
  async get(requestUrl: string): Promise<RendererFile | undefined> {
    let path: string;
    try {
      path = decodeURIComponent(requestUrl.split('?', 1)[0] as string);
    } catch {
      return undefined;
    }
    if (path === '/') path = '/index.html';
    const ready = this.inMemory.get(path);
    if (ready) return ready;
    const file = this.onDisk.get(path);
    if (!file) return undefined;
    const loaded = { body: await readFile(file), contentType: typeOf(path) };
    this.inMemory.set(path, loaded);
    return loaded;
  }
}

function typeOf(path: string): string {
  return CONTENT_TYPES[extname(path)] ?? 'application/octet-stream';
}
