// An update feed on loopback, as electron-builder publishes one: `latest-linux.yml` (the stable
// channel's newest version, its file and that file's sha512) and the file itself. It records
// every request, so a test sees what the app asked for — or that it asked nothing.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface UpdateFeed {
  url: string;
  /** The paths asked for, in order. */
  requests: string[];
  /** The file served as the new version. */
  file: Buffer;
  close(): Promise<void>;
}

/** Serves `version`; with `wrongSha512` the feed names a digest the file does not have. */
export async function startUpdateFeed(
  version: string,
  options: { wrongSha512?: boolean } = {},
): Promise<UpdateFeed> {
  const file = randomBytes(64 * 1024);
  const name = `Agent-Console-${version}.AppImage`;
  const digest = createHash('sha512')
    .update(options.wrongSha512 ? Buffer.from('not the file') : file)
    .digest('base64');
  const yml = [
    `version: ${version}`,
    'files:',
    `  - url: ${name}`,
    `    sha512: ${digest}`,
    `    size: ${file.length}`,
    `path: ${name}`,
    `sha512: ${digest}`,
    "releaseDate: '2026-11-28T00:00:00.000Z'",
    '',
  ].join('\n');
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://feed').pathname;
    requests.push(path);
    if (path === '/latest-linux.yml') {
      res.writeHead(200, { 'content-type': 'text/yaml' }).end(yml);
    } else if (path === `/${name}`) {
      res
        .writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': file.length })
        .end(file);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    file,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
