import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { Listener } from '../../src/platform/http/access.js';
import { listenerUrl } from '../../src/platform/http/listener-routes.js';
import type { CompileCount } from '../../src/platform/http/validation.js';
import type { MailConfig } from '../../src/platform/mail/mailer.js';
import { compose, type Services } from '../../src/compose.js';
import type { Organization, User } from '../../src/domains/auth/index.js';
import type { AuditContext } from '../../src/domains/ledger/index.js';
import { SettableClock } from '../../src/platform/clock.js';
import type { Database } from '../../src/platform/db/database.js';
import { createLogger } from '../../src/platform/logger.js';
import { randomBytes } from 'node:crypto';
import { createSealer } from '../../src/platform/crypto/sealed.js';
import { createOutboundClient } from '../../src/platform/net/outbound.js';

export type TestApp = {
  services: Services;
  clock: SettableClock;
  main: FastifyInstance;
  pipeline: FastifyInstance;
  /** Every log line the app wrote. */
  logs: string[];
  dataKey: Buffer;
  close(): Promise<void>;
};

export const testCtx: AuditContext = { actor: { kind: 'system', id: null, name: 'test setup' }, source: 'cli' };

/** Both listeners of a real app on the given database, for `inject()`; logs captured in memory. */
export async function testApp(db: Database, opts: { clock?: SettableClock; publicUrl?: string; mail?: MailConfig | null; outboundTimeoutMs?: number; webDir?: string | null; dataKey?: Buffer; trustProxy?: string[]; holdReleaseDelayMs?: number; aiBudgetMs?: number; checkpointWitnessUrl?: string; eagerSchemas?: Record<Listener, CompileCount> } = {}): Promise<TestApp> {
  const clock = opts.clock ?? new SettableClock(new Date());
  // The key that seals secrets: a restarted app on the same database needs the same one.
  const dataKey = opts.dataKey ?? randomBytes(32);
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      logs.push(chunk.toString('utf8'));
      cb();
    },
  });
  const logger = createLogger({ level: 'info', destination });
  // Test receivers listen on loopback: the client's test-only switch lets it through, no other class.
  const services = compose({ db, clock, logger, sealer: createSealer(dataKey), outbound: { client: createOutboundClient({ testOnlyAllowLoopback: true, timeoutMs: opts.outboundTimeoutMs }), allowPrivate: false }, publicUrl: opts.publicUrl, mail: opts.mail, holdReleaseDelayMs: opts.holdReleaseDelayMs, aiBudgetMs: opts.aiBudgetMs,
    checkpoints: { name: 'changeledger.test', witnessUrl: opts.checkpointWitnessUrl ?? null } });
  // The pipeline listener's address, once a test makes it listen (most only inject).
  let pipelineApp: FastifyInstance | null = null;
  const pipelineUrl = () => (pipelineApp === null ? null : listenerUrl(pipelineApp, '127.0.0.1'));
  const deps = { ...services, secureCookies: false, version: 'test', webDir: opts.webDir ?? null, pipelineUrl, ...(opts.trustProxy ? { trustProxy: opts.trustProxy } : {}) };
  const eager = (l: Listener) => (opts.eagerSchemas ? { eagerSchemas: opts.eagerSchemas[l] } : {});
  const main = await buildApp({ ...deps, ...eager('main') }, 'main');
  const pipeline = await buildApp({ ...deps, ...eager('pipeline') }, 'pipeline');
  pipelineApp = pipeline;
  return {
    services, clock, main, pipeline, logs, dataKey,
    async close() {
      await main.close();
      await pipeline.close();
      services.mailer.close();
    },
  };
}

let counter = 0;
export const PASSWORD = 'correct horse battery staple';

export type SignedIn = {
  org: Organization;
  user: User;
  cookie: string;
  csrf: string;
  /** Headers of a signed-in browser making an unsafe request. */
  headers: Record<string, string>;
};

/** A new organisation and its owner, signed in through the real sign-in route. */
export async function signedInOwner(t: TestApp, name = 'Acme'): Promise<SignedIn> {
  counter += 1;
  const email = `owner${counter}.${process.pid}.${Math.random().toString(36).slice(2, 8)}@example.test`;
  const { org, owner } = await t.services.auth.createOrganizationWithOwner(testCtx, { name: `${name} ${counter}`, email, password: PASSWORD });
  return signIn(t, org, owner, PASSWORD);
}

export async function signIn(t: TestApp, org: Organization, user: User, password: string): Promise<SignedIn> {
  const res = await t.main.inject({ method: 'POST', url: '/api/session', payload: { email: user.email, password } });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === 'cl_session')!.value;
  const csrf = (res.json() as { csrfToken: string }).csrfToken;
  return { org, user, cookie, csrf, headers: { cookie: `cl_session=${cookie}`, 'x-csrf-token': csrf } };
}

/**
 * A token for the signed-in person: an owner's or admin's through the API; a member may not create
 * one, so theirs is made as `changeledger tokens create --user` makes it.
 */
export async function createToken(t: TestApp, s: SignedIn, scopes: string[], name = 'ci'): Promise<{ id: string; secret: string }> {
  const session = await t.main.inject({ method: 'GET', url: '/api/session', headers: s.headers });
  if ((session.json() as { role?: string }).role === 'member') {
    const made = await t.services.auth.createToken(testCtx, { org: s.org, user: s.user }, { name, scopes });
    return { id: made.token.id, secret: made.secret };
  }
  const res = await t.main.inject({ method: 'POST', url: '/api/tokens', headers: s.headers, payload: { name, scopes } });
  if (res.statusCode !== 201) throw new Error(`token creation failed: ${res.statusCode} ${res.body}`);
  const body = res.json() as { token: { id: string }; secret: string };
  return { id: body.token.id, secret: body.secret };
}

/** Rows in every table but auth_throttles (a refused sign-in rightly counts against its sender). */
export async function countRows(db: Database): Promise<Record<string, number>> {
  const tables = ['organizations', 'users', 'memberships', 'sessions', 'sign_in_links', 'api_tokens', 'audit_events', 'jobs', 'environments', 'flags', 'flag_states', 'flag_change_requests', 'flag_approvals', 'flag_settings', 'sdk_keys', 'incidents', 'incident_settings', 'catalogue_entities', 'catalogue_links', 'catalogue_routes', 'catalogue_sources', 'catalogue_settings', 'component_aliases', 'manual_services', 'change_settings', 'change_approvers', 'changes', 'change_blasts', 'change_approvals', 'change_reports', 'change_captures', 'change_rollback_releases', 'change_validation_rows', 'change_reviews', 'evidence_settings', 'evidence_sources', 'ai_providers', 'ai_assessments', 'log_records', 'observed_settings', 'change_sources', 'observed_changes', 'change_receipts', 'change_source_markers', 'change_source_deliveries', 'alert_settings', 'alertmanagers', 'alert_destinations', 'alerts', 'alert_transitions', 'alert_holds', 'held_alerts', 'hold_subjects', 'hold_silences', 'deliveries', 'delivery_attempts', 'itsm_tickets', 'change_templates', 'change_windows', 'change_voided_approvals', 'governance_versions', 'unmanaged_settings', 'unmanaged_cases', 'audit_checkpoints', 'checkpoint_signing_key', 'audit_heads'];
  const out: Record<string, number> = {};
  for (const t of tables) out[t] = Number((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${t}`)).rows[0]!.n);
  return out;
}
