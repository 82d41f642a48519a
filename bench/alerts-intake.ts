/**
 * Alert intake measured through the real app: Alertmanager webhook batches POSTed (app.inject, a
 * signed-in session on the main listener) to POST /api/alerts/alertmanager, which parses, maps
 * subjects (one catalogue query), looks up the live holds (one hold_subjects query), writes the
 * alerts, transitions and held_alerts rows and one audit event in one transaction. The baseline is
 * a bare Fastify route on the same database that parses the same bodies, computes the same
 * fingerprints and inserts the same alerts and transitions rows, with nothing else.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { compose, type Services } from '../src/compose.js';
import { insertHoldSubject } from '../src/domains/alerts/alert-store.js';
import { labelSetFingerprint } from '../src/domains/alerts/fingerprint.js';
import type { AuditContext } from '../src/domains/ledger/index.js';
import { systemClock } from '../src/platform/clock.js';
import { createSealer } from '../src/platform/crypto/sealed.js';
import type { Database } from '../src/platform/db/database.js';
import { createLogger } from '../src/platform/logger.js';
import { createOutboundClient } from '../src/platform/net/outbound.js';
import { say } from './bench-support.js';

export type IntakeOptions = { batches: number; batchSize: number; changes: number; rounds: number; warmup: number };
export type IntakeResult = {
  intake: { alerts: number; ms: number; perSec: number; perRound: number[] };
  bare: { alerts: number; ms: number; perSec: number; perRound: number[] };
  ratio: number;
  holdRows: number;
  verified: { alerts: number; transitions: number; held: number; audits: number; bareAlerts: number };
};

const SERVICES = 200;
const HOSTS = 50;
const PASSWORD = 'bench password 1234';

function estate(): string {
  const lines = ['entities:'];
  for (let i = 0; i < SERVICES; i++) lines.push(`  - { key: "svc:s-${i}", kind: service, name: s-${i}, tier: standard }`);
  for (let i = 0; i < HOSTS; i++) lines.push(`  - { key: "host:h-${i}", kind: host, name: h-${i} }`);
  return lines.join('\n');
}

/**
 * One webhook batch: `size` new alerts (a distinct `n` label each, so every one is a new row and a
 * new transition on both sides). Services 0-199 are in the catalogue and held by the active
 * changes; 200-299 are not, so they fall to their host (h-0 … h-49); the alertname spreads them.
 */
export function batchBody(b: number, size: number, tag: string): string {
  const startsAt = new Date(Date.UTC(2026, 0, 1) + b * 1_000).toISOString();
  const alerts = Array.from({ length: size }, (_, i) => {
    const k = b * size + i;
    return {
      status: 'firing', startsAt, endsAt: '0001-01-01T00:00:00Z', generatorURL: `http://prometheus.bench:9090/graph?g0.expr=up&k=${k}`,
      labels: { alertname: `Alert${k % 10}`, service: `s-${k % 300}`, instance: `h-${k % HOSTS}:9100`, job: 'node', severity: k % 3 === 0 ? 'page' : 'ticket', n: `${tag}-${k}` },
      annotations: { summary: `alert ${k} of the benchmark`, runbook: 'https://runbooks.bench/alerts' },
    };
  });
  return JSON.stringify({ version: '4', groupKey: `{}:{alertname="bench-${b}"}`, status: 'firing', receiver: 'changeledger', externalURL: 'http://alertmanager.bench:9093', truncatedAlerts: 0, groupLabels: {}, commonLabels: {}, commonAnnotations: {}, alerts });
}

type BareAlert = { labels: Record<string, string>; annotations?: Record<string, string>; startsAt: string; endsAt?: string; generatorURL?: string; status: string };

/** The baseline: parse, fingerprint, insert the same alerts and transitions rows in one transaction. */
async function bareApp(db: Database, orgId: string): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  app.post('/bare', async (req) => {
    const body = req.body as { alerts: BareAlert[] };
    const now = new Date().toISOString();
    const rows = body.alerts.map((a) => ({
      fingerprint: labelSetFingerprint(a.labels), alertname: a.labels.alertname ?? '', labels: a.labels, annotations: a.annotations ?? {}, generatorURL: a.generatorURL ?? null,
      subjectLabel: `unmapped · ${a.labels.alertname ?? ''} · bare`, state: a.status, startsAt: a.startsAt,
    }));
    await db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO alerts (org_id, fingerprint, alertname, labels, annotations, generator_url, subject_kind, subject_key, subject_label, source, state, starts_at, first_seen, last_seen)
         SELECT $1, r.fingerprint, r.alertname, r.labels, r.annotations, r."generatorURL", 'unmapped', NULL, r."subjectLabel", 'bare', r.state, r."startsAt", $3, $3
           FROM jsonb_to_recordset($2::jsonb) AS r(fingerprint text, alertname text, labels jsonb, annotations jsonb, "generatorURL" text, "subjectLabel" text, state text, "startsAt" timestamptz)
         ON CONFLICT (org_id, fingerprint) DO UPDATE SET last_seen = EXCLUDED.last_seen`,
        [orgId, JSON.stringify(rows), now],
      );
      await tx.query(
        `INSERT INTO alert_transitions (org_id, fingerprint, state, at, received_at, via)
         SELECT $1, r.fingerprint, r.state, r."startsAt", $3, 'webhook' FROM jsonb_to_recordset($2::jsonb) AS r(fingerprint text, state text, "startsAt" timestamptz)
         ON CONFLICT (org_id, fingerprint, state, at) DO NOTHING`,
        [orgId, JSON.stringify(rows), now],
      );
    });
    return { received: rows.length };
  });
  await app.ready();
  return app;
}

type Setup = { services: Services; main: FastifyInstance; bare: FastifyInstance; headers: Record<string, string>; orgId: string; bareOrgId: string; holdRows: number };

async function setUp(db: Database, o: IntakeOptions, label: string): Promise<Setup> {
  const discard = new Writable({ write: (_c, _e, cb) => cb() });
  const services = compose({
    db, clock: systemClock, logger: createLogger({ level: 'silent', destination: discard }), sealer: createSealer(randomBytes(32)),
    outbound: { client: createOutboundClient(), allowPrivate: false },
  });
  const ctx: AuditContext = { actor: { kind: 'system', id: null, name: 'bench setup' }, source: 'cli' };
  const { org, owner } = await services.auth.createOrganizationWithOwner(ctx, { name: 'Alerts benchmark', email: 'owner@alerts.bench', password: PASSWORD });
  const bareOrg = await services.auth.createOrganizationWithOwner(ctx, { name: 'Bare baseline', email: 'owner@bare.bench' });
  await services.catalogue.importText(ctx, org.id, 'changeledger', estate(), 'bench');
  const { secret } = await services.auth.createToken(ctx, { org, user: owner }, { name: 'bench', scopes: ['changes:read', 'changes:write'] });
  const p = (await services.auth.authenticateToken(secret))!;
  // 50 changes, each holding 4 of the 200 services: their hold_subjects rows, as the holds module keeps them while a hold is live.
  let holdRows = 0;
  for (let c = 0; c < o.changes; c++) {
    const r = await services.changes.register(ctx, p, { title: `Bench change ${c}`, components: [{ key: `svc:s-${c}` }] });
    for (let k = 0; k < 4; k++) {
      await insertHoldSubject(db, org.id, 'service', `svc:s-${(c * 4 + k) % SERVICES}`, r.change.id);
      holdRows++;
    }
  }
  const deps = { ...services, secureCookies: false, version: 'bench', webDir: null };
  const main = await buildApp(deps, 'main');
  await main.ready();
  const signIn = await main.inject({ method: 'POST', url: '/api/session', payload: { email: owner.email, password: PASSWORD } });
  if (signIn.statusCode !== 200) throw new Error(`alerts benchmark: sign-in failed ${signIn.statusCode} ${signIn.body}`);
  const cookie = signIn.cookies.find((c) => c.name === 'cl_session')!.value;
  const headers = { cookie: `cl_session=${cookie}`, 'x-csrf-token': (signIn.json() as { csrfToken: string }).csrfToken, 'content-type': 'application/json' };
  const bare = await bareApp(db, bareOrg.org.id);
  say(`  [${label}] ${SERVICES} services and ${HOSTS} hosts in the catalogue; ${o.changes} changes with ${holdRows} hold_subjects rows; batches of ${o.batchSize}`);
  return { services, main, bare, headers, orgId: org.id, bareOrgId: bareOrg.org.id, holdRows };
}

async function post(app: FastifyInstance, url: string, headers: Record<string, string>, body: string): Promise<void> {
  const r = await app.inject({ method: 'POST', url, headers, payload: body });
  if (r.statusCode !== 200) throw new Error(`alerts benchmark: ${url} answered ${r.statusCode} ${r.body.slice(0, 300)}`);
}

export async function benchIntake(db: Database, label: string, o: IntakeOptions): Promise<IntakeResult> {
  const s = await setUp(db, o, label);
  let batch = 0;
  const one = async (which: 'intake' | 'bare'): Promise<number> => {
    const body = batchBody(batch++, o.batchSize, which);
    const t0 = performance.now();
    if (which === 'intake') await post(s.main, '/api/alerts/alertmanager', s.headers, body);
    else await post(s.bare, '/bare', { 'content-type': 'application/json' }, body);
    return performance.now() - t0;
  };
  for (let i = 0; i < o.warmup; i++) {
    await one('intake');
    await one('bare');
  }
  // The two sides alternate batch by batch (and which goes first alternates by round), so a load
  // spike from elsewhere on the machine falls on both alike rather than on one side's round.
  const per = Math.max(1, Math.floor(o.batches / o.rounds));
  const times = { intake: [] as number[], bare: [] as number[] };
  for (let r = 0; r < o.rounds; r++) {
    const order: Array<'intake' | 'bare'> = r % 2 === 0 ? ['intake', 'bare'] : ['bare', 'intake'];
    const spent = { intake: 0, bare: 0 };
    for (let i = 0; i < per; i++) for (const w of order) spent[w] += await one(w);
    times.intake.push(spent.intake);
    times.bare.push(spent.bare);
  }
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const alerts = per * o.rounds * o.batchSize;
  const rate = (msTotal: number) => (alerts / msTotal) * 1000;
  const intake = { alerts, ms: sum(times.intake), perSec: rate(sum(times.intake)), perRound: times.intake.map((t) => ((per * o.batchSize) / t) * 1000) };
  const bare = { alerts, ms: sum(times.bare), perSec: rate(sum(times.bare)), perRound: times.bare.map((t) => ((per * o.batchSize) / t) * 1000) };

  // Every alert sent is one row and one transition; the held ones have a held_alerts row; one audit event per batch.
  const count = async (sql: string, p: unknown[]) => Number((await db.query<{ n: number }>(sql, p)).rows[0]!.n);
  const sent = (o.warmup + per * o.rounds) * o.batchSize;
  const verified = {
    alerts: await count('SELECT count(*)::int AS n FROM alerts WHERE org_id = $1', [s.orgId]),
    transitions: await count('SELECT count(*)::int AS n FROM alert_transitions WHERE org_id = $1', [s.orgId]),
    held: await count('SELECT count(DISTINCT fingerprint)::int AS n FROM held_alerts WHERE org_id = $1', [s.orgId]),
    audits: await count("SELECT count(*)::int AS n FROM audit_events WHERE org_id = $1 AND action = 'alerts.received'", [s.orgId]),
    bareAlerts: await count('SELECT count(*)::int AS n FROM alerts WHERE org_id = $1', [s.bareOrgId]),
  };
  if (verified.alerts !== sent || verified.transitions !== sent || verified.bareAlerts !== sent || verified.audits !== o.warmup + per * o.rounds) {
    throw new Error(`alerts benchmark: expected ${sent} alerts and transitions on each side and one audit event per batch, found ${JSON.stringify(verified)}`);
  }
  if (verified.held === 0) throw new Error('alerts benchmark: no alert was held, so the hold look-up was not measured');
  await s.main.close();
  await s.bare.close();
  s.services.mailer.close();
  return { intake, bare, ratio: intake.perSec / bare.perSec, holdRows: s.holdRows, verified };
}
