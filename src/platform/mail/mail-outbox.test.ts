import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { closedPort, startSmtpCapture, type SmtpCapture } from '../../../test/support/smtp-capture.js';
import { SettableClock } from '../clock.js';
import { retryDelayMs } from '../jobs/job.js';
import { findJob } from '../jobs/job-queue.js';
import { JobWorker } from '../jobs/job-worker.js';
import { createLogger } from '../logger.js';
import { MAIL_JOB, MAIL_MAX_ATTEMPTS, mailJobHandlers, scheduleMail, scheduleMails } from './mail-outbox.js';
import { createMailer, type Mailer } from './mailer.js';

describeEachEngine('the mail outbox', (engine) => {
  const clock = new SettableClock('2026-03-01T10:00:00.000Z');
  const lines: string[] = [];
  const logger = createLogger({
    level: 'info',
    destination: new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString('utf8'));
        cb();
      },
    }),
  });
  let smtp: SmtpCapture;
  let mailer: Mailer;
  let worker: JobWorker;
  let n = 0;

  const put = async (to: string, key = `test:${++n}`) =>
    engine.db().transaction(async (tx) => {
      await scheduleMail(tx, clock, { orgId: null, to, subject: `Message ${n}`, text: `text ${n}\n`, html: `<p>html ${n}</p>`, dedupeKey: key });
      const r = await tx.query<{ id: string }>('SELECT id FROM jobs WHERE dedupe_key = $1', [key]);
      return r.rows[0]!.id;
    });
  const drain = async (w = worker) => {
    while ((await w.runOnce()) > 0);
  };

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    mailer = createMailer({ smtpUrl: smtp.url, from: 'changes@acme.dev' }, logger);
    worker = new JobWorker({ db: engine.db(), clock, logger, handlers: mailJobHandlers(mailer) });
  });
  afterAll(async () => {
    mailer.close();
    await smtp.close();
  });

  it('sends what a committed transaction put in, once; the same key twice is one message', async () => {
    const id = await put('alice@acme.dev', 'same-occasion');
    await engine.db().transaction((tx) => scheduleMail(tx, clock, { orgId: null, to: 'alice@acme.dev', subject: 'again', text: '', html: '', dedupeKey: 'same-occasion' }));
    await drain();
    expect(smtp.messages.filter((m) => m.envelope.to[0] === 'alice@acme.dev')).toHaveLength(1);
    expect(smtp.messages.at(-1)!.mail.messageId).toBe(`<${id}@acme.dev>`);
    expect((await findJob(engine.db(), id))!).toMatchObject({ status: 'done', kind: MAIL_JOB, maxAttempts: MAIL_MAX_ATTEMPTS });
  });

  it('puts many messages in at once, skipping a key already queued and a key twice in the batch', async () => {
    await put('fay@acme.dev', 'batch:fay');
    const m = (to: string, key: string) => ({ orgId: null, to, subject: `Batch for ${to}`, text: 'batch\n', html: '<p>batch</p>', dedupeKey: key });
    const added = await engine.db().transaction((tx) =>
      scheduleMails(tx, clock, [m('fay@acme.dev', 'batch:fay'), m('gus@acme.dev', 'batch:gus'), m('hal@acme.dev', 'batch:hal'), m('gus@acme.dev', 'batch:gus')]));
    expect(added).toBe(2);
    const before = smtp.messages.length;
    await drain();
    const sent = smtp.messages.slice(before).map((x) => `${x.envelope.to[0]} ${x.mail.subject}`).sort();
    expect(sent).toEqual(['fay@acme.dev Message ' + n, 'gus@acme.dev Batch for gus@acme.dev', 'hal@acme.dev Batch for hal@acme.dev'].sort());
  });

  it('carries an attachment through the outbox to the server', async () => {
    const csv = 'section,subject\r\nred,"a,b"\r\n';
    await engine.db().transaction((tx) => scheduleMail(tx, clock, {
      orgId: null, to: 'erin@acme.dev', subject: 'Reported', text: 'see the CSV\n', html: '<p>see the CSV</p>', dedupeKey: 'with-attachment',
      attachments: [{ filename: 'change-CHG-01234567-v2.csv', contentType: 'text/csv', content: csv }],
    }));
    await drain();
    const m = smtp.messages.find((x) => x.envelope.to[0] === 'erin@acme.dev')!;
    expect(m.mail.attachments.map((a) => [a.filename, a.contentType, a.content.toString('utf8')])).toEqual([['change-CHG-01234567-v2.csv', 'text/csv', csv]]);
    expect(m.mail.text).toBe('see the CSV\n');
  });

  it('puts nothing in when the transaction rolls back', async () => {
    const before = smtp.messages.length;
    await expect(engine.db().transaction(async (tx) => {
      await scheduleMail(tx, clock, { orgId: null, to: 'bob@acme.dev', subject: 'never', text: '', html: '', dedupeKey: 'rolled-back' });
      throw new Error('the use case failed');
    })).rejects.toThrow('the use case failed');
    await drain();
    expect(smtp.messages.length).toBe(before);
    expect((await engine.db().query('SELECT 1 FROM jobs WHERE dedupe_key = $1', ['rolled-back'])).rows).toHaveLength(0);
  });

  it('reschedules a message the server answers with 4xx, and delivers it once the server takes it', async () => {
    smtp.fail({ code: 451, at: 'rcpt', text: 'Greylisted, try again' });
    const id = await put('carol@acme.dev');
    await drain();
    let job = (await findJob(engine.db(), id))!;
    expect(job).toMatchObject({ status: 'pending', attempts: 1, lastError: expect.stringContaining('451') });
    expect(Date.parse(job.runAt) - clock.now().getTime()).toBe(retryDelayMs(1, id));
    expect(smtp.messages.some((m) => m.envelope.to[0] === 'carol@acme.dev')).toBe(false);
    smtp.fail(null);
    clock.advance(retryDelayMs(1, id));
    await drain();
    job = (await findJob(engine.db(), id))!;
    expect(job).toMatchObject({ status: 'done', attempts: 2 });
    expect(smtp.messages.filter((m) => m.envelope.to[0] === 'carol@acme.dev')).toHaveLength(1);
  });

  it('reschedules a message while the server is unreachable: the job is kept, not lost', async () => {
    const port = await closedPort();
    const down = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'changes@acme.dev' }, logger);
    try {
      const w = new JobWorker({ db: engine.db(), clock, logger, handlers: mailJobHandlers(down) });
      const id = await put('dave@acme.dev');
      await drain(w);
      const job = (await findJob(engine.db(), id))!;
      expect(job).toMatchObject({ status: 'pending', attempts: 1, lastError: expect.stringMatching(/ECONNECTION|ECONNREFUSED/) });
      expect(Date.parse(job.runAt)).toBeGreaterThan(clock.now().getTime());
      // The server is back (the process restarted with the right URL): the kept job goes out.
      clock.advance(retryDelayMs(1, id));
      await drain();
      expect(smtp.messages.filter((m) => m.envelope.to[0] === 'dave@acme.dev')).toHaveLength(1);
    } finally {
      down.close();
    }
  });

  it('does not retry a recipient the server refuses for good (5xx), and logs it', async () => {
    smtp.fail({ code: 550, at: 'rcpt', text: 'No such user' });
    try {
      const id = await put('nobody@acme.dev');
      await drain();
      expect((await findJob(engine.db(), id))!).toMatchObject({ status: 'done', attempts: 1 });
      expect(lines.some((l) => l.includes('mail refused by the SMTP server, not retried') && l.includes('nobody@acme.dev'))).toBe(true);
    } finally {
      smtp.fail(null);
    }
  });

  it('finishes a job for a reserved address without handing it to the server', async () => {
    const id = await put('someone@example.org');
    await drain();
    expect((await findJob(engine.db(), id))!.status).toBe('done');
    expect(smtp.recipients).not.toContain('someone@example.org');
  });
});
