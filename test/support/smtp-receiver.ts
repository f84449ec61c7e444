// A local SMTP server (smtp-server, from the nodemailer project) as a mail provider runs one: it
// offers STARTTLS with a self-signed certificate made by the real `openssl`, and takes a login
// (`user` with `password`) only once the connection is encrypted. It keeps every message with its
// envelope and whether it came over TLS.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** Whether the message came over TLS (STARTTLS here). */
  secure: boolean;
  user: string;
  raw: string;
}

export interface SmtpReceiver {
  port: number;
  /** The certificate's file: the CA an email channel trusts (`ca:`). */
  caFile: string;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/** A certificate for 127.0.0.1 signed by itself, written as key.pem and cert.pem into `dir`. */
function selfSigned(dir: string): { key: string; cert: string } {
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'],
      ...['-keyout', 'key.pem', '-out', 'cert.pem', '-days', '2'],
      ...['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
    ],
    { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return {
    key: readFileSync(join(dir, 'key.pem'), 'utf8'),
    cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
  };
}

export async function startSmtpReceiver(
  dir: string,
  login: { user: string; password: string },
): Promise<SmtpReceiver> {
  const { key, cert } = selfSigned(dir);
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    key,
    cert,
    authMethods: ['PLAIN', 'LOGIN'],
    onAuth(auth, _session, done) {
      if (auth.username === login.user && auth.password === login.password)
        done(null, { user: auth.username });
      else done(new Error('Invalid username or password'));
    },
    onData(stream, session, done) {
      let raw = '';
      stream.on('data', (d: Buffer) => (raw += d.toString()));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          secure: session.secure,
          user: String(session.user),
          raw,
        });
        done();
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    caFile: join(dir, 'cert.pem'),
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
