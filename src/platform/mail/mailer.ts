import type { Logger } from 'pino';
import { isReservedAddress } from './reserved.js';

/** Where e-mail goes: an smtp:// or smtps:// URL (credentials, nodemailer options as query parameters) and the sender. */
export type MailConfig = { smtpUrl: string; from: string };

/** A file sent with a message (the report's CSV): text content, stored as is in the outbox job. */
export type MailAttachment = { filename: string; contentType: string; content: string };

/** One message to one person: nobody sees who else was written to. */
export type OutgoingMail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
  /** Names the message for good: the same id on every attempt, so a receiver can drop a duplicate. */
  id?: string;
};

export type MailResult =
  | { outcome: 'sent'; response: string }
  | { outcome: 'skipped'; reason: 'no_smtp' | 'reserved_address' | 'not_one_address' }
  | { outcome: 'refused'; reason: string };

export type Mailer = {
  /** Whether an SMTP server is configured; without one every message is skipped. */
  readonly configured: boolean;
  /** Hands one message to the server. Throws when it may succeed later (unreachable, 4xx, auth). */
  send(m: OutgoingMail): Promise<MailResult>;
  close(): void;
};

/**
 * nodemailer waits two minutes for a connection by default; a send must end well inside the job
 * lease (60 s), or another worker takes the job over and the message could go out twice.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;

const ONE_ADDRESS = /^[^\s@,;<>"'()[\]\\]+@[^\s@,;<>"'()[\]\\]+$/;

type SmtpError = Error & { code?: string; command?: string; responseCode?: number; response?: string };

/** The server for logs: scheme, host and port — never the credentials in the URL. */
export function smtpTarget(smtpUrl: string): string {
  const u = new URL(smtpUrl);
  return `${u.protocol}//${u.hostname}${u.port ? `:${u.port}` : ''}`;
}

/**
 * A 5xx to a recipient or to the message itself is final: the same message to the same address
 * will be refused again. Everything else — no connection, a timeout, a 4xx, a refused login or
 * sender (the configuration, fixed by someone) — is worth another attempt.
 */
function isFinal(e: SmtpError): boolean {
  return (e.responseCode ?? 0) >= 500 && (e.command === 'RCPT TO' || e.command === 'DATA');
}

function describe(e: SmtpError): string {
  return [e.code, e.message].filter(Boolean).join(' ').replace(/\s+/g, ' ').slice(0, 500);
}

/**
 * Pools SMTP connections (about 100 ms a message less than a connection per message). nodemailer
 * is loaded at the first message, so a server that sends none never parses it.
 */
export function createMailer(config: MailConfig | null, logger: Logger): Mailer {
  const open = (c: MailConfig) =>
    import('./smtp-transport.js').then(({ createTransport }) => createTransport({ ...SMTP_TIMEOUTS, pool: true, maxConnections: 2, url: c.smtpUrl }, { from: c.from }));
  let pool: ReturnType<typeof open> | null = null;
  const transport = config ? () => (pool ??= open(config)) : null;
  const domain = config ? (/@([^\s@>]+)>?\s*$/.exec(config.from)?.[1] ?? 'changeledger') : 'changeledger';
  if (config) logger.info({ smtp: smtpTarget(config.smtpUrl), from: config.from }, 'mail: sending through the configured SMTP server');
  else logger.info('mail: no SMTP configured (CHANGELEDGER_SMTP_URL): e-mails are skipped');
  return {
    configured: transport !== null,
    async send(m) {
      const subject = m.subject.replace(/\s+/g, ' ').trim();
      const about = `"${subject}" to ${m.to}`;
      if (!ONE_ADDRESS.test(m.to)) {
        logger.warn({ to: m.to, subject }, `mail skipped: not a single address: ${about}`);
        return { outcome: 'skipped', reason: 'not_one_address' };
      }
      if (isReservedAddress(m.to)) {
        logger.info({ to: m.to, subject }, `mail skipped: reserved test address, never handed to the mail server: ${about}`);
        return { outcome: 'skipped', reason: 'reserved_address' };
      }
      if (!transport) {
        logger.info({ to: m.to, subject }, `mail skipped: no SMTP configured (CHANGELEDGER_SMTP_URL): ${about}`);
        return { outcome: 'skipped', reason: 'no_smtp' };
      }
      try {
        const attachments = m.attachments?.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content }));
        const info = await (await transport()).sendMail({
          to: m.to, subject, text: m.text, html: m.html, ...(attachments?.length ? { attachments } : {}), ...(m.id ? { messageId: `<${m.id}@${domain}>` } : {}),
        });
        logger.info({ to: m.to, subject, response: info.response }, `mail sent: ${about}`);
        return { outcome: 'sent', response: info.response };
      } catch (err) {
        const e = err as SmtpError;
        const why = describe(e);
        if (isFinal(e)) {
          logger.error({ to: m.to, subject, err: why }, `mail refused by the SMTP server, not retried: ${about}`);
          return { outcome: 'refused', reason: why };
        }
        throw new Error(`SMTP ${smtpTarget(config!.smtpUrl)}: ${why}`);
      }
    },
    close() {
      void pool?.then((t) => t.close());
    },
  };
}
