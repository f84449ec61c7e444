// Email over SMTP through nodemailer: STARTTLS required on a plain port (never a login or a message
// in clear), or TLS from the start; every wait bounded. The subject and every header value are one
// line: a monitor named with a CR or LF in it cannot add a header (a Bcc: to someone) or end the
// headers early (docs/security.md, "Channels"). The password is read by the caller
// (channel-secrets.ts) and goes nowhere but the AUTH command.
import { readFile } from 'node:fs/promises';
import { WATCH_WORDS, type MonitorNotification } from '../../../../shared/monitor';
import { CoreError } from '../../core-error';
import type { EmailConfig } from './channel-config';

const TIMEOUT_MS = 15_000;

/** One line of text: control characters (CR, LF, NUL, …) and line separators become spaces. */
const oneLine = (text: string): string =>
  text
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();

function emailMessage(n: MonitorNotification): { subject: string; text: string } {
  const lines = [
    n.body,
    '',
    `Monitor: ${n.monitorName}`,
    `Status: ${WATCH_WORDS[n.to]}${n.from !== n.to ? ` (was ${WATCH_WORDS[n.from]})` : ''}`,
    `At: ${new Date(n.at).toISOString()}`,
    ...(n.incidentId ? [`Incident: ${n.incidentId}`] : []),
    '',
    '— Agent Console',
  ];
  return {
    subject: oneLine(`[Agent Console] ${n.title}: ${n.monitorName}`).slice(0, 250),
    text: lines.join('\n'),
  };
}

/** The server's host as it may be shown, with its recipients. */
export const emailTarget = (config: EmailConfig): string =>
  `${config.host}:${config.port} → ${config.to.join(', ')}`;

export async function sendEmail(
  config: EmailConfig,
  password: string | undefined,
  n: MonitorNotification,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<void> {
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  let ca: string | undefined;
  if (config.ca) {
    try {
      ca = await readFile(config.ca, 'utf8');
    } catch (error) {
      throw new CoreError(
        'BAD_CHANNEL',
        `The CA certificate for ${config.host} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
      );
    }
  }
  const { createTransport } = await import('nodemailer');
  const transport = createTransport({
    host: config.host,
    port: config.port,
    secure: config.tls === 'tls',
    requireTLS: config.tls === 'starttls',
    ...(config.user && password ? { auth: { user: config.user, pass: password } } : {}),
    tls: { minVersion: 'TLSv1.2', ...(ca ? { ca } : {}) },
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const { subject, text } = emailMessage(n);
  const sending = transport.sendMail({ from: config.from, to: config.to, subject, text });
  const stopped = new Promise<never>((_, reject) => {
    options.signal?.addEventListener('abort', () => reject(options.signal?.reason as Error), { once: true });
  });
  try {
    await Promise.race([sending, stopped]);
  } catch (error) {
    options.signal?.throwIfAborted();
    const e = error as { code?: string; responseCode?: number };
    const why = [e.code, e.responseCode].filter(Boolean).join(' ') || 'no answer';
    throw new CoreError(
      'CHANNEL_FAILED',
      `The email via ${config.host}:${config.port} was not sent (${why}).`,
    );
  } finally {
    transport.close();
  }
}
