import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, startSmtpCapture, type SmtpCapture } from '../../../test/support/smtp-capture.js';
import { mailConfig } from '../../config.js';
import { createLogger } from '../logger.js';
import { createMailer, smtpTarget, type Mailer } from './mailer.js';
import { renderMail } from './render.js';
import { isReservedAddress } from './reserved.js';

function capturedLogger() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString('utf8'));
      cb();
    },
  });
  return { logger: createLogger({ level: 'info', destination }), lines };
}

const message = (to: string) => ({ to, subject: 'Approval needed: Deploy', text: 'hello\n', html: '<p>hello</p>' });

describe('reserved test addresses', () => {
  it.each([
    ['alice@example.test', true], ['ops@acme.example', true], ['x@nowhere.invalid', true], ['owner@localhost', true], ['dev@box.localhost', true],
    ['a@example.com', true], ['a@EXAMPLE.ORG', true], ['a@mail.example.net', true], ['a@example.com.', true], ['no-domain@', true], ['@acme.com', true],
    ['alice@acme.com', false], ['ops@example.company', false], ['a@notexample.com', false], ['a@test.acme.io', false], ['a@examples.org', false],
  ])('%s is reserved: %s', (address, reserved) => {
    expect(isReservedAddress(address)).toBe(reserved);
  });
});

describe('rendering', () => {
  it('escapes what people typed in the HTML and keeps the links in both parts', () => {
    const r = renderMail({
      heading: 'Approval needed: <script>alert(1)</script>', lines: ['Tom & Jerry "quoted"'], facts: [['Window', 'a\nb']],
      lists: [{ title: 'Components', items: ['<b>web</b>'] }], actions: [{ label: 'Approve or reject', url: 'https://cl.acme.com/?view=changes&change=chg_1&approve=1' }],
    });
    expect(r.html).not.toContain('<script>');
    expect(r.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(r.html).toContain('Tom &amp; Jerry &quot;quoted&quot;');
    expect(r.html).toContain('&lt;b&gt;web&lt;/b&gt;');
    expect(r.html).toContain('href="https://cl.acme.com/?view=changes&amp;change=chg_1&amp;approve=1"');
    expect(r.text).toContain('Approve or reject: https://cl.acme.com/?view=changes&change=chg_1&approve=1');
    expect(r.text).toContain('  - <b>web</b>');
  });
});

describe('the mailer against a real SMTP server on loopback', () => {
  let smtp: SmtpCapture;
  let mailer: Mailer;
  const log = capturedLogger();

  beforeAll(async () => {
    smtp = await startSmtpCapture({ auth: { user: 'changeledger', pass: 's3cret pass' } });
    mailer = createMailer({ smtpUrl: smtp.url, from: 'changeledger <changes@acme.dev>' }, log.logger);
  });
  afterAll(async () => {
    mailer.close();
    await smtp.close();
  });

  it('signs in with the URL’s credentials and hands over one message to one address, named by its id', async () => {
    const r = await mailer.send({ ...message('alice@acme.dev'), subject: 'Approval needed:\r\nBcc: mallory@evil.dev', id: 'job_1' });
    expect(r).toMatchObject({ outcome: 'sent' });
    expect(smtp.messages).toHaveLength(1);
    const m = smtp.messages[0]!;
    expect(m.user).toBe('changeledger');
    expect(m.envelope).toEqual({ from: 'changes@acme.dev', to: ['alice@acme.dev'] });
    expect(m.mail.subject).toBe('Approval needed: Bcc: mallory@evil.dev');
    expect(m.mail.headers.has('bcc')).toBe(false);
    expect(m.mail.messageId).toBe('<job_1@acme.dev>');
    expect(m.mail.text).toBe('hello\n');
    expect(m.mail.html).toContain('<p>hello</p>');
    expect(log.lines.join('')).not.toContain('s3cret');
  });

  it('never hands a reserved address to the server, and says so in one log line', async () => {
    const before = smtp.recipients.length;
    expect(await mailer.send(message('bob@example.com'))).toEqual({ outcome: 'skipped', reason: 'reserved_address' });
    expect(smtp.recipients.length).toBe(before);
    expect(log.lines.filter((l) => l.includes('mail skipped: reserved test address') && l.includes('bob@example.com'))).toHaveLength(1);
  });

  it('refuses anything but one plain address', async () => {
    const before = smtp.recipients.length;
    expect(await mailer.send(message('alice@acme.dev, bob@acme.dev'))).toMatchObject({ outcome: 'skipped', reason: 'not_one_address' });
    expect(await mailer.send(message('Bob <bob@acme.dev>'))).toMatchObject({ outcome: 'skipped' });
    expect(smtp.recipients.length).toBe(before);
  });

  it('throws on a temporary refusal (4xx) so the job retries, and answers refused on a permanent one (5xx)', async () => {
    smtp.fail({ code: 451, at: 'rcpt' });
    await expect(mailer.send(message('carol@acme.dev'))).rejects.toThrow(/451/);
    smtp.fail({ code: 550, at: 'rcpt' });
    expect(await mailer.send(message('carol@acme.dev'))).toMatchObject({ outcome: 'refused', reason: expect.stringContaining('550') });
    smtp.fail(null);
  });

  it('throws when the login is refused (a configuration to fix, then retried)', async () => {
    const wrong = createMailer({ smtpUrl: smtp.url.replace('s3cret%20pass', 'nope'), from: 'changes@acme.dev' }, log.logger);
    try {
      await expect(wrong.send(message('dave@acme.dev'))).rejects.toThrow(/EAUTH/);
    } finally {
      wrong.close();
    }
  });

  it('throws when the server is unreachable, naming the server without its credentials', async () => {
    const port = await closedPort();
    const down = createMailer({ smtpUrl: `smtp://u:pw-secret@127.0.0.1:${port}`, from: 'changes@acme.dev' }, log.logger);
    try {
      const err = await down.send(message('erin@acme.dev')).then(() => null, (e: Error) => e);
      expect(err?.message).toContain(`smtp://127.0.0.1:${port}`);
      expect(err?.message).not.toContain('pw-secret');
    } finally {
      down.close();
    }
  });
});

describe('without SMTP', () => {
  it('skips every message with one log line each, never an error', async () => {
    const log = capturedLogger();
    const mailer = createMailer(null, log.logger);
    expect(mailer.configured).toBe(false);
    expect(await mailer.send(message('alice@acme.dev'))).toEqual({ outcome: 'skipped', reason: 'no_smtp' });
    expect(await mailer.send(message('bob@acme.dev'))).toEqual({ outcome: 'skipped', reason: 'no_smtp' });
    expect(log.lines.filter((l) => l.includes('mail skipped: no SMTP configured'))).toHaveLength(2);
  });

  it('names the server in logs without the credentials', () => {
    expect(smtpTarget('smtps://user%40acme.com:p%40ss@smtp.acme.com:465?pool=true')).toBe('smtps://smtp.acme.com:465');
  });
});

describe('mail configuration (serve options and environment)', () => {
  it('is off without an SMTP URL', () => {
    expect(mailConfig({}, {})).toBeNull();
    expect(mailConfig({}, { CHANGELEDGER_SMTP_URL: '' })).toBeNull();
  });

  it('takes the option over the environment, and the sender from the SMTP user when it is an address', () => {
    expect(mailConfig({}, { CHANGELEDGER_SMTP_URL: 'smtps://changes%40acme.com:pw@smtp.acme.com:465' })).toEqual({ smtpUrl: 'smtps://changes%40acme.com:pw@smtp.acme.com:465', from: 'changes@acme.com' });
    expect(mailConfig({ smtpUrl: 'smtp://mx.acme.com:587', mailFrom: 'changeledger <cl@acme.com>' }, { CHANGELEDGER_SMTP_URL: 'smtp://other:25', CHANGELEDGER_MAIL_FROM: 'x@y.z' }))
      .toEqual({ smtpUrl: 'smtp://mx.acme.com:587', from: 'changeledger <cl@acme.com>' });
  });

  it('refuses what it cannot use, never repeating a password', () => {
    expect(() => mailConfig({ smtpUrl: 'http://u:hunter2@mx.acme.com' }, {})).toThrow(/smtp:\/\/… or smtps:\/\/…/);
    expect(() => mailConfig({ smtpUrl: 'not a url hunter2' }, {})).toThrow(/is not a URL/);
    expect(() => mailConfig({ smtpUrl: 'smtp://relay:hunter2@mx.acme.com' }, {})).toThrow(/--mail-from/);
    expect(() => mailConfig({ smtpUrl: 'smtp://mx.acme.com', mailFrom: 'nobody' }, {})).toThrow(/--mail-from must be an address/);
    for (const bad of ['http://u:hunter2@mx.acme.com', 'not a url hunter2', 'smtp://relay:hunter2@mx.acme.com']) {
      try {
        mailConfig({ smtpUrl: bad }, {});
      } catch (e) {
        expect((e as Error).message).not.toContain('hunter2');
      }
    }
  });
});
