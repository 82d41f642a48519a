import type { InjectOptions } from 'fastify';
import { SettableClock } from '../../src/platform/clock.js';
import type { Database } from '../../src/platform/db/database.js';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { startAlertmanager, type Alertmanager } from './alertmanager.js';
import { startFlipExporter, type FlipExporter } from './flip-exporter.js';
import { pollUntil } from './peer-process.js';
import { downRule } from './prometheus.js';
import { startPrometheusHistory, type RedProfile } from './prometheus-history.js';
import { startSmtpCapture, type Captured, type SmtpCapture } from './smtp-capture.js';
import { createToken, PASSWORD, signIn, testApp, testCtx, type SignedIn, type TestApp } from './test-app.js';

/**
 * The app as the evidence tests need it, beside real peers: Alertmanager posts to its pipeline
 * listener, the OpenTelemetry SDK posts logs there, the report's collection reads Prometheus, the
 * Reported e-mail goes to a real SMTP server, and Chromium opens report.html on the main listener.
 *
 * Time. The peers stamp what they send with the wall clock, and the evidence horizon is at least 15
 * minutes after the finish. So the app runs on the wall clock while the change runs, and jumps the
 * horizon in one step once every change of the test has finished (`reachHorizon`): the collection
 * then reads Prometheus at finish + horizon, a quarter of an hour in Prometheus' future. Error
 * ratio and p95 are ratios over one range and do not mind samples missing from the window's tail;
 * the request rate does (the window's mean rate reads low: 0.6 req/s against 10), so the tests set
 * the organisation's rateDrop threshold to 1, where only a fall to zero counts, and judge no change
 * on its rate.
 */

/** The wall clock plus an offset the test moves forward: the horizon in one jump, the peers on real time until then. */
export class JumpClock extends SettableClock {
  #offsetMs = 0;
  override now(): Date {
    return new Date(Date.now() + this.#offsetMs);
  }
  override set(at: Date | string): void {
    this.#offsetMs = new Date(at).getTime() - Date.now();
  }
  override advance(ms: number): void {
    this.#offsetMs += ms;
  }
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
export type Answer = { status: number; json: Json; body: string; headers: Record<string, string | string[] | undefined> };

export type EvidenceStack = {
  t: TestApp;
  clock: JumpClock;
  smtp: SmtpCapture;
  owner: SignedIn;
  /** An address at the stack's own (non-reserved) domain: the mailer skips example.* addresses. */
  at(name: string): string;
  /** The token Alertmanager sends (alerts:write only). */
  alertsToken: string;
  /** A token with logs:write only, for the OTLP exporter: made on first use. */
  logsToken(): Promise<string>;
  /** http://127.0.0.1:<port> of the listening pipeline and main listeners. */
  pipelineUrl: string;
  mainUrl: string;
  /** The signed-in owner on the main listener. */
  session(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown): Promise<Answer>;
  /** The pipeline's token (changes:write, changes:read) on the pipeline listener: the change's requester is the owner. */
  pipe(method: 'GET' | 'POST', url: string, payload?: unknown): Promise<Answer>;
  /** Moves the app's clock past every finished change's horizon (the longest horizon + a margin). */
  reachHorizon(evidenceMinutes: number): void;
  /** Polls until the change is reported; answers its report.json. */
  waitForReport(changeId: string, version?: number): Promise<Json>;
  /** The Reported e-mails of a change (by subject prefix and title). */
  reportedMails(title: string): Captured[];
  /** A second organisation on the same app (same clock, same SMTP), with a catalogue and a pipeline token, nothing else. */
  otherOrg(o: { estate?: string; name: string }): Promise<OtherOrg>;
  close(): Promise<void>;
};

/** Another organisation of the stack's app: its owner's session, its pipeline, its reports. */
export type OtherOrg = Pick<EvidenceStack, 'session' | 'pipe' | 'waitForReport'> & { ownerEmail: string; cookie: string; orgId: string };

export type EvidenceStackOptions = {
  /** The catalogue, in changeledger's YAML import format. */
  estate?: string;
  name?: string;
  /** Whether the app has SMTP: without it, the report says so. */
  mail?: boolean;
  /** Who else receives every report (the organisation's completion list), as local parts at the stack's domain. */
  completion?: string[];
};

const answer = (r: { statusCode: number; body: string; headers: Record<string, string | string[] | number | undefined> }): Answer => {
  let json: Json = {};
  try {
    json = JSON.parse(r.body) as Json;
  } catch {
    json = {};
  }
  const headers = Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v]));
  return { status: r.statusCode, json, body: r.body, headers };
};

/** Starts SMTP capture, the app on `db` with both listeners listening, an owner, the catalogue and the tokens. */
export async function startEvidenceStack(db: Database, opts: EvidenceStackOptions = {}): Promise<EvidenceStack> {
  const domain = `evidence-${Math.random().toString(36).slice(2, 8)}.dev`;
  const at = (name: string) => `${name}@${domain}`;
  const smtp = await startSmtpCapture();
  const clock = new JumpClock();
  const t = await testApp(db, {
    clock, publicUrl: 'https://changes.example.test',
    mail: opts.mail === false ? null : { smtpUrl: smtp.url, from: `changeledger <changes@${domain}>` },
  });
  const stop = async () => {
    await t.services.worker.stop();
    await t.close();
    await smtp.close();
  };
  /** An organisation, its owner (olivia@<domain>, the requester of what its pipeline registers), its catalogue, settings and pipeline token. */
  const organisation = async (name: string, email: string, estate: string | undefined, completion: string[]) => {
    const created = await t.services.auth.createOrganizationWithOwner(testCtx, { name, email, password: PASSWORD });
    const owner = await signIn(t, created.org, created.owner, PASSWORD);
    const session: EvidenceStack['session'] = async (method, url, payload) =>
      answer(await t.main.inject({ method, url, headers: owner.headers, ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }) }));
    if (estate) {
      const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: estate });
      if (imp.statusCode !== 200) throw new Error(`catalogue import failed: ${imp.statusCode} ${imp.body}`);
    }
    // Approvals are not what these tests are about: a registered change may start at once.
    const settings = await session('PUT', `/api/organizations/${owner.org.id}/change-settings`, { approvalRequired: 'none', completionRecipients: completion });
    if (settings.status !== 200) throw new Error(`change settings failed: ${settings.status} ${settings.body}`);
    const pipeline = (await createToken(t, owner, ['changes:write', 'changes:read'], 'deploy-pipeline')).secret;
    const pipe: EvidenceStack['pipe'] = async (method, url, payload) =>
      answer(await t.pipeline.inject({ method, url, headers: { authorization: `Bearer ${pipeline}` }, ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }) }));
    const waitForReport: EvidenceStack['waitForReport'] = (changeId, version) => pollUntil(`the report of change ${changeId}${version ? ` v${version}` : ''}`, async () => {
      const r = await session('GET', `/api/changes/${changeId}/report.json${version ? `?version=${version}` : ''}`);
      if (r.status === 404) return undefined;
      if (r.status !== 200) throw new Error(`report.json: ${r.status} ${r.body}`);
      return r.json;
    }, { deadlineMs: 180_000, details: () => t.logs.slice(-20).join('') });
    return { owner, session, pipe, waitForReport };
  };
  try {
    const org = await organisation(opts.name ?? 'Evidence', at('olivia'), opts.estate, (opts.completion ?? []).map(at));
    const { owner } = org;
    const alertsToken = (await createToken(t, owner, ['alerts:write'], 'alertmanager')).secret;
    let logs: Promise<string> | null = null;
    const logsToken = () => (logs ??= createToken(t, owner, ['logs:write'], 'otel-collector').then((x) => x.secret));
    await t.pipeline.listen({ host: '127.0.0.1', port: 0 });
    await t.main.listen({ host: '127.0.0.1', port: 0 });
    const urlOf = (app: TestApp['main']) => `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    t.services.worker.start();
    let others = 0;
    return {
      t, clock, smtp, at, alertsToken, logsToken, pipelineUrl: urlOf(t.pipeline), mainUrl: urlOf(t.main), ...org,
      reachHorizon(evidenceMinutes) {
        clock.advance(evidenceMinutes * 60_000 + 10_000);
      },
      reportedMails: (title) => smtp.messages.filter((m) => (m.mail.subject ?? '').startsWith(`Reported: ${title}`)),
      async otherOrg(o) {
        others += 1;
        const email = at(`owner${others}`);
        const made = await organisation(o.name, email, o.estate, []);
        return { session: made.session, pipe: made.pipe, waitForReport: made.waitForReport, ownerEmail: email, cookie: made.owner.cookie, orgId: made.owner.org.id };
      },
      close: stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

export type EvidencePeers = {
  prometheusUrl: string;
  /** What a service's live RED is from now on (the window; the baselines are backfilled). */
  setLive(service: string, red: RedProfile): void;
  /** Sets a service's health check: false makes Prometheus' ServiceDown fire, true resolves it. */
  check(service: string, up: boolean): void;
  /** Polls changeledger until the service's alert has exactly these transitions, in order. */
  waitForAlertState(service: string, states: Array<'firing' | 'resolved'>): Promise<void>;
  /** Sends log records with the OpenTelemetry JS SDK (LoggerProvider + OTLP/HTTP exporter) to POST /v1/logs; answers once they are stored. */
  sendLogs(service: string, records: Array<{ severity: 'ERROR' | 'WARN' | 'INFO'; body: string }>): Promise<void>;
  stop(): Promise<void>;
};

const SEVERITY = { ERROR: SeverityNumber.ERROR, WARN: SeverityNumber.WARN, INFO: SeverityNumber.INFO } as const;

/**
 * The peers of the stack's organisation: Debian's Alertmanager routing to changeledger's pipeline
 * listener (the alerts token), Debian's Prometheus with RED history backfilled before `start`
 * (the hour before, the week earlier) scraping a live RED exporter and a health-check exporter,
 * whose ServiceDown rule goes to that Alertmanager. The org's Alertmanager is not configured as a
 * silence target: relay mode, the default, records every alert.
 */
export async function startEvidencePeers(stack: EvidenceStack, o: {
  /** When the changes start: the hour before ends there. */
  start: Date;
  /** start → finish + horizon, at most: how much of the week earlier is backfilled. */
  windowMinutes: number;
  /** Each service's RED in the hour before and the week earlier; the window goes on at the hour before's until setLive. */
  services: Record<string, { hourBefore: RedProfile; weekEarlier: RedProfile }>;
  /** The services with a health check (ServiceDown). */
  checks: string[];
}): Promise<EvidencePeers> {
  const started: Array<{ stop?: () => Promise<void>; close?: () => Promise<void> }> = [];
  const stopAll = async () => {
    for (const p of started.reverse()) await (p.stop ?? p.close)!.call(p);
  };
  try {
    const checks: FlipExporter = await startFlipExporter();
    started.push(checks);
    for (const s of o.checks) checks.set('up_check', { service: s }, 1);
    const am: Alertmanager = await startAlertmanager({ receivers: [{ name: 'changeledger', url: `${stack.pipelineUrl}/api/alerts/alertmanager`, bearer: stack.alertsToken }] });
    started.push(am);
    const red = await startPrometheusHistory({
      services: o.services, windowStart: o.start, windowMinutes: o.windowMinutes,
      prometheus: { scrape: [checks.target], rules: [downRule()], alertmanagers: [{ url: am.url }] },
    });
    started.push(red);
    const alertOf = async (service: string) => {
      const list = await stack.session('GET', '/api/alerts');
      if (list.status !== 200) throw new Error(`GET /api/alerts: ${list.status} ${list.body}`);
      return (list.json.alerts as Json[]).find((a) => a.labels?.service === service && a.alertname === 'ServiceDown');
    };
    return {
      prometheusUrl: red.url,
      setLive: (service, profile) => red.set(service, profile),
      check: (service, up) => checks.set('up_check', { service }, up ? 1 : 0),
      async waitForAlertState(service, states) {
        const want = states.join(',');
        await pollUntil(`${service}'s alert to read ${want}`, async () => {
          const a = await alertOf(service);
          if (!a) return states.length === 0 ? true : undefined;
          const h = await stack.session('GET', `/api/alerts/${a.fingerprint as string}`);
          return (h.json.transitions as Json[]).map((x) => x.state).join(',') === want ? true : undefined;
        }, { details: () => `${am.logs().slice(-1500)}\n${stack.t.logs.slice(-10).join('')}` });
      },
      async sendLogs(service, records) {
        const before = await countLogs(stack);
        const provider = new LoggerProvider({
          resource: resourceFromAttributes({ 'service.name': service }),
          processors: [new BatchLogRecordProcessor(new OTLPLogExporter({ url: `${stack.pipelineUrl}/v1/logs`, headers: { authorization: `Bearer ${await stack.logsToken()}` } }))],
        });
        const logger = provider.getLogger('evidence-e2e');
        for (const r of records) logger.emit({ severityNumber: SEVERITY[r.severity], severityText: r.severity, body: r.body });
        await provider.forceFlush();
        await provider.shutdown();
        // The exporter keeps a refusal to itself (it only logs through the OpenTelemetry diag API): the store says what arrived.
        await pollUntil(`${records.length} log records of ${service} stored`, async () => ((await countLogs(stack)) >= before + records.length ? true : undefined), { deadlineMs: 20_000 });
      },
      stop: stopAll,
    };
  } catch (e) {
    await stopAll();
    throw e;
  }
}

async function countLogs(stack: EvidenceStack): Promise<number> {
  const r = await stack.t.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM log_records WHERE org_id = $1', [stack.owner.org.id]);
  return r.rows[0]!.n;
}
