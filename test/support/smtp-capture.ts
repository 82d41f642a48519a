import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type Captured = {
  /** What the client said in MAIL FROM and RCPT TO: who the server was asked to deliver to. */
  envelope: { from: string; to: string[] };
  mail: ParsedMail;
  /** The user name the client signed in with, if any. */
  user: string | null;
};

export type SmtpCapture = {
  /** smtp://[user:pass@]127.0.0.1:port */
  url: string;
  messages: Captured[];
  /** Every address given in RCPT TO, accepted or refused. */
  recipients: string[];
  /** Answer RCPT TO (or DATA) with this code until told otherwise: 4xx temporary, 5xx permanent. */
  fail(answer: { code: number; at: 'rcpt' | 'data'; text?: string } | null): void;
  close(): Promise<void>;
};

/**
 * A real SMTP server on loopback (smtp-server) that keeps what it receives, parsed by mailparser.
 * Without STARTTLS, so a client speaks plain SMTP; with `auth`, it refuses anyone else.
 */
export async function startSmtpCapture(opts: { auth?: { user: string; pass: string } } = {}): Promise<SmtpCapture> {
  const messages: Captured[] = [];
  const recipients: string[] = [];
  let failing: { code: number; at: 'rcpt' | 'data'; text?: string } | null = null;
  const refusal = (at: 'rcpt' | 'data') => {
    if (!failing || failing.at !== at) return null;
    return Object.assign(new Error(failing.text ?? (failing.code < 500 ? 'Try again later' : 'Mailbox unavailable')), { responseCode: failing.code });
  };
  const server = new SMTPServer({
    logger: false,
    disabledCommands: opts.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !opts.auth,
    allowInsecureAuth: true,
    onAuth(auth, _session, cb) {
      if (opts.auth && auth.username === opts.auth.user && auth.password === opts.auth.pass) cb(null, { user: auth.username });
      else cb(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, cb) {
      recipients.push(address.address);
      cb(refusal('rcpt'));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const refused = refusal('data');
        if (refused) return cb(refused);
        simpleParser(Buffer.concat(chunks)).then(
          (mail) => {
            const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
            messages.push({ envelope: { from, to: session.envelope.rcptTo.map((r) => r.address) }, mail, user: (session.user as string | undefined) ?? null });
            cb(null);
          },
          (err: Error) => cb(err),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  const creds = opts.auth ? `${encodeURIComponent(opts.auth.user)}:${encodeURIComponent(opts.auth.pass)}@` : '';
  return {
    url: `smtp://${creds}127.0.0.1:${port}`,
    messages,
    recipients,
    fail(answer) {
      failing = answer;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
