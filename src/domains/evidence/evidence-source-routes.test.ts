import { createServer, type Server } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { missingPeers, PEER_TEST_TIMEOUT_MS } from '../../../test/support/peer-process.js';
import { freePort } from '../../../test/support/postgres-cluster.js';
import { HEALTHY, startPrometheusHistory, type PrometheusHistory } from '../../../test/support/prometheus-history.js';
import { PASSWORD, signIn, signedInOwner, testApp, testCtx, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { listAuditEvents } from '../ledger/index.js';
import { listEvidenceSources, readEvidenceSettings } from './evidence-settings-store.js';
import { DEFAULT_THRESHOLDS } from './thresholds.js';
import { RED_PRESETS } from './red-templates.js';
import { createSealer } from '../../platform/crypto/sealed.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const skipPrometheus = missingPeers('evidence-source-routes', ['prometheus']).length > 0;

/** Stands in front of the real Prometheus and lets through only requests carrying `authorization`. */
async function authProxy(upstream: string, authorization: string): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.headers.authorization ?? '');
    if (req.headers.authorization !== authorization) {
      res.writeHead(401, { 'content-type': 'text/plain' }).end('Unauthorized\n');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const r = await fetch(`${upstream}${req.url}`, { method: req.method, headers: { 'content-type': req.headers['content-type'] ?? 'text/plain' }, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) });
        res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' }).end(await r.text());
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describeEachEngine('Settings → Evidence API', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let admin: SignedIn;
  let member: SignedIn;
  let prom: PrometheusHistory | undefined;
  const audit = async (action: string) => (await listAuditEvents(engine.db(), owner.org.id, { action }, 200)).items.filter((e) => e.action === action).reverse();
  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, who: SignedIn = owner) =>
    t.main.inject({ method, url, headers: who.headers, ...(payload === undefined ? {} : { payload: payload as Json }) });
  const rows = async () => Number((await engine.db().query<{ n: number }>('SELECT count(*)::int AS n FROM evidence_sources WHERE org_id = $1', [owner.org.id])).rows[0]!.n);
  const KEY = Buffer.alloc(32, 7);

  beforeAll(async () => {
    t = await testApp(engine.db(), { dataKey: KEY });
    owner = await signedInOwner(t, 'Evidence');
    const add = async (role: 'admin' | 'member') => {
      const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: `${role}${Math.random().toString(36).slice(2)}@x.test`, role, password: PASSWORD });
      return signIn(t, owner.org, user, PASSWORD);
    };
    admin = await add('admin');
    member = await add('member');
    if (!skipPrometheus) {
      prom = await startPrometheusHistory({ windowMinutes: 10, services: { checkout: { hourBefore: HEALTHY, weekEarlier: HEALTHY }, payments: { hourBefore: HEALTHY, weekEarlier: HEALTHY } } });
    }
  }, PEER_TEST_TIMEOUT_MS);
  afterAll(async () => {
    await prom?.stop();
    await t.close();
  }, PEER_TEST_TIMEOUT_MS);

  describe('evidence sources', () => {
    it('adds a Prometheus with basic auth: 201, sealed (hasSecret, the user name as hint, never the password), audited without it', async () => {
      const res = await api('POST', '/api/evidence-sources', { kind: 'prometheus', name: 'Main Prometheus', url: 'http://prometheus.internal:9090/', auth: { kind: 'basic', username: 'reader', password: 's3cret-pw' } });
      expect(res.statusCode).toBe(201);
      const s = res.json().source as Json;
      expect(s).toMatchObject({ kind: 'prometheus', name: 'Main Prometheus', url: 'http://prometheus.internal:9090', authKind: 'basic', hasSecret: true, authHint: 'user reader', enabled: true, config: {} });
      expect(res.body).not.toContain('s3cret-pw');
      const row = (await engine.db().query<{ auth_sealed: string }>('SELECT auth_sealed FROM evidence_sources WHERE id = $1', [s.id])).rows[0]!;
      expect(row.auth_sealed).not.toContain('s3cret');
      const [ev] = (await audit('evidence_source.created')).filter((e) => e.target?.id === s.id);
      expect(ev!.data).toEqual({ kind: 'prometheus', name: 'Main Prometheus', url: 'http://prometheus.internal:9090', authKind: 'basic', enabled: true });
      expect(JSON.stringify(ev)).not.toContain('s3cret');
      // The collector's read opens the credentials, ready to use.
      const ready = (await listEvidenceSources(engine.db(), owner.org.id, { enabledOnly: true, sealer: createSealer(KEY) })).find((x) => x.id === s.id)!;
      expect(ready.auth).toEqual({ kind: 'basic', user: 'reader', password: 's3cret-pw' });
      expect(ready.authProblem).toBeNull();
    });

    it('adds each log kind with its settings checked by the logs part, and the OTLP intake without a URL', async () => {
      const loki = await api('POST', '/api/evidence-sources', { kind: 'loki', name: 'Loki', url: 'http://loki:3100', auth: { kind: 'bearer', token: 'tok-123' }, config: { selector: 'env="prod"' } });
      expect(loki.statusCode).toBe(201);
      expect(loki.json().source).toMatchObject({ kind: 'loki', authKind: 'bearer', hasSecret: true, authHint: 'a bearer token', config: { serviceLabel: 'service_name', selector: 'env="prod"' } });
      const es = await api('POST', '/api/evidence-sources', { kind: 'elasticsearch', name: 'Logs cluster', url: 'https://es.internal:9200', config: { index: 'logs-app-*' } });
      expect(es.statusCode).toBe(201);
      expect(es.json().source.config).toMatchObject({ index: 'logs-app-*', timeField: '@timestamp', serviceField: 'service.name' });
      const otlp = await api('POST', '/api/evidence-sources', { kind: 'otlp', name: 'Our intake' });
      expect(otlp.statusCode).toBe(201);
      expect(otlp.json().source).toMatchObject({ kind: 'otlp', url: null, authKind: 'none', hasSecret: false });
      const list = await api('GET', '/api/evidence-sources', undefined, member);
      expect(list.statusCode).toBe(200);
      expect((list.json().sources as Json[]).map((s) => s.kind)).toEqual(expect.arrayContaining(['prometheus', 'loki', 'elasticsearch', 'otlp']));
      expect(list.body).not.toContain('tok-123');
    });

    it('refuses bad input with 400 naming the field, in words, and writes nothing', async () => {
      const before = { rows: await rows(), audit: (await audit('evidence_source.created')).length };
      const cases: Array<[Json, string, RegExp]> = [
        [{ kind: 'prometheus', name: 'P', url: 'ftp://x' }, 'url', /http or https/],
        [{ kind: 'prometheus', name: 'P', url: 'http://169.254.169.254/' }, 'url', /never be reached.*metadata/],
        [{ kind: 'prometheus', name: 'P' }, 'url', /required/],
        [{ kind: 'prometheus', name: 'P', url: 'http://u:p@prom:9090' }, 'url', /credentials/],
        [{ kind: 'prometheus', name: 'P', url: 'http://prom:9090', auth: { kind: 'bearer' } }, 'auth.token', /required/],
        [{ kind: 'prometheus', name: 'P', url: 'http://prom:9090', auth: { kind: 'basic', username: 'a:b', password: 'x' } }, 'auth.username', /colon/],
        [{ kind: 'prometheus', name: 'P', url: 'http://prom:9090', config: { index: 'x' } }, 'config', /not used by a Prometheus/],
        [{ kind: 'loki', name: 'L', url: 'http://loki:3100', config: { serviceLabel: '9x' } }, 'config.serviceLabel', /label name/],
        [{ kind: 'otlp', name: 'O', url: 'http://x' }, 'url', /POST \/v1\/logs/],
        [{ kind: 'prometheus', name: '  ', url: 'http://prom:9090' }, 'name', /required/],
      ];
      for (const [body, field, words] of cases) {
        const res = await api('POST', '/api/evidence-sources', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().field, JSON.stringify(body)).toBe(field);
        expect(res.json().error).toMatch(words);
      }
      expect(await rows()).toBe(before.rows);
      expect((await audit('evidence_source.created')).length).toBe(before.audit);
    });

    it('lets members read but not write (403, nothing written)', async () => {
      const before = await rows();
      const res = await api('POST', '/api/evidence-sources', { kind: 'prometheus', name: 'P', url: 'http://prom:9090' }, member);
      expect(res.statusCode).toBe(403);
      expect(await rows()).toBe(before);
    });

    it('changes a source keeping its stored password when none is sent, refuses a change of kind, and removes it; each audited', async () => {
      const made = (await api('POST', '/api/evidence-sources', { kind: 'prometheus', name: 'Edit me', url: 'http://prom:9090', auth: { kind: 'basic', username: 'u', password: 'pw1' } })).json().source as Json;
      const put = await api('PUT', `/api/evidence-sources/${made.id}`, { name: 'Edited', enabled: false, auth: { kind: 'basic', username: 'u' } }, admin);
      expect(put.statusCode).toBe(200);
      expect(put.json().source).toMatchObject({ name: 'Edited', enabled: false, hasSecret: true });
      const ready = (await listEvidenceSources(engine.db(), owner.org.id, { sealer: createSealer(KEY) })).find((x) => x.id === made.id)!;
      expect(ready.auth).toEqual({ kind: 'basic', user: 'u', password: 'pw1' });
      expect((await listEvidenceSources(engine.db(), owner.org.id, { enabledOnly: true, sealer: createSealer(KEY) })).some((x) => x.id === made.id)).toBe(false);
      const [ev] = (await audit('evidence_source.updated')).filter((e) => e.target?.id === made.id);
      expect(ev!.data).toMatchObject({ changed: ['name', 'enabled'] });
      const kind = await api('PUT', `/api/evidence-sources/${made.id}`, { kind: 'loki' });
      expect(kind.statusCode).toBe(400);
      expect(kind.json().field).toBe('kind');
      const del = await api('DELETE', `/api/evidence-sources/${made.id}`);
      expect(del.statusCode).toBe(204);
      expect((await api('GET', `/api/evidence-sources/${made.id}`)).statusCode).toBe(404);
      expect((await audit('evidence_source.deleted')).some((e) => e.target?.id === made.id)).toBe(true);
    });

    it('Test: a Prometheus nobody listens on answers {ok: false, "connection refused"}, audited', async () => {
      const port = await freePort();
      const made = (await api('POST', '/api/evidence-sources', { kind: 'prometheus', name: 'Gone', url: `http://127.0.0.1:${port}` })).json().source as Json;
      const res = await api('POST', `/api/evidence-sources/${made.id}/test`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: false, message: 'connection refused' });
      expect((await audit('evidence_source.tested')).find((e) => e.target?.id === made.id)!.data).toMatchObject({ ok: false, message: 'connection refused' });
    });

    it.skipIf(skipPrometheus)('Test: Debian\'s Prometheus behind basic auth answers its version and how many services the rate query finds', async () => {
      const proxy = await authProxy(prom!.url, `Basic ${Buffer.from('reader:pw').toString('base64')}`);
      try {
        const made = (await api('POST', '/api/evidence-sources', { kind: 'prometheus', name: 'Real', url: proxy.url, auth: { kind: 'basic', username: 'reader', password: 'pw' } })).json().source as Json;
        const res = await api('POST', `/api/evidence-sources/${made.id}/test`, undefined, admin);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ ok: true, version: expect.stringMatching(/^2\.\d+/), message: expect.stringMatching(/^Prometheus 2\.\d+\.\d+.* answered; the OpenTelemetry request-rate query finds 2 services by job in the last 5 minutes$/) });
        const wrong = (await api('POST', '/api/evidence-sources', { kind: 'prometheus', name: 'Wrong pw', url: proxy.url, auth: { kind: 'basic', username: 'reader', password: 'nope' } })).json().source as Json;
        expect((await api('POST', `/api/evidence-sources/${wrong.id}/test`)).json()).toEqual({ ok: false, message: 'Prometheus answered 401: check the credentials' });
      } finally {
        await proxy.close();
      }
    }, PEER_TEST_TIMEOUT_MS);
  });

  describe('evidence settings', () => {
    it('answers the documented defaults while nothing is saved', async () => {
      const res = await api('GET', '/api/evidence-settings', undefined, member);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ thresholds: DEFAULT_THRESHOLDS, thresholdsAreDefault: true, redTemplates: { name: 'otel', serviceLabel: 'job' }, redTemplatesStored: null, aiEnabled: true, updatedAt: null });
    });

    it('saves some thresholds over the defaults and the classic preset; the collector reads them; audited', async () => {
      const res = await api('PUT', '/api/evidence-settings', { thresholds: { errorRatioPoints: 2, latencyFloorMs: 250 }, redTemplates: { preset: 'classic' } }, admin);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ thresholds: { ...DEFAULT_THRESHOLDS, errorRatioPoints: 2, latencyFloorMs: 250 }, thresholdsAreDefault: false, redTemplates: { name: 'classic' }, redTemplatesStored: { preset: 'classic' } });
      const read = await readEvidenceSettings(engine.db(), owner.org.id);
      expect(read).toEqual({ thresholds: { ...DEFAULT_THRESHOLDS, errorRatioPoints: 2, latencyFloorMs: 250 }, redTemplates: RED_PRESETS.classic, aiEnabled: true });
      const ev = (await audit('settings.evidence_updated')).at(-1)!;
      expect(ev.data).toMatchObject({ changed: ['thresholds', 'redTemplates'] });
    });

    it('writes and audits nothing for a PUT that changes nothing: an empty body, or the values already stored', async () => {
      const before = (await audit('settings.evidence_updated')).length;
      const stored = (await api('GET', '/api/evidence-settings', undefined, admin)).json();
      const empty = await api('PUT', '/api/evidence-settings', {}, admin);
      expect([empty.statusCode, empty.json().thresholds]).toEqual([200, stored.thresholds]);
      const same = await api('PUT', '/api/evidence-settings', { aiEnabled: stored.aiEnabled }, admin);
      expect(same.statusCode, same.body).toBe(200);
      expect((await audit('settings.evidence_updated')).length).toBe(before);
    });

    it('saves the organisation\'s own templates and refuses one without $offset or $by, naming the field', async () => {
      const own = { serviceLabel: 'service', rate: 'sum by ($by) (rate(reqs[$range] $offset))', errorRatio: 'sum by ($by) (rate(errs[$range] $offset)) / sum by ($by) (rate(reqs[$range] $offset))', p95: 'histogram_quantile(0.95, sum by ($by, le) (rate(lat_bucket[$range] $offset)))' };
      const ok = await api('PUT', '/api/evidence-settings', { redTemplates: own });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().redTemplates).toEqual({ name: 'custom', serviceLabel: 'service', queries: { rate: own.rate, errorRatio: own.errorRatio, p95: own.p95 } });
      const before = (await audit('settings.evidence_updated')).length;
      const noOffset = await api('PUT', '/api/evidence-settings', { redTemplates: { ...own, p95: 'histogram_quantile(0.95, sum by ($by, le) (rate(lat_bucket[$range])))' } });
      expect(noOffset.statusCode).toBe(400);
      expect(noOffset.json()).toMatchObject({ field: 'redTemplates.p95', error: expect.stringMatching(/\$offset/) });
      const noBy = await api('PUT', '/api/evidence-settings', { redTemplates: { ...own, rate: 'sum(rate(reqs[$range] $offset))' } });
      expect(noBy.json()).toMatchObject({ field: 'redTemplates.rate', error: expect.stringMatching(/\$by/) });
      const badThreshold = await api('PUT', '/api/evidence-settings', { thresholds: { downMinutes: 2.5 } });
      expect(badThreshold.statusCode).toBe(400);
      expect(badThreshold.json()).toMatchObject({ field: 'thresholds.downMinutes', error: expect.stringMatching(/whole number of minutes/) });
      const unknown = await api('PUT', '/api/evidence-settings', { thresholds: { errorPercent: 3 } });
      expect(unknown.json()).toMatchObject({ field: 'thresholds.errorPercent', error: expect.stringMatching(/not a known threshold/) });
      expect((await audit('settings.evidence_updated')).length).toBe(before);
      expect((await readEvidenceSettings(engine.db(), owner.org.id)).redTemplates.name).toBe('custom');
    });

    it('lets only an owner turn the AI assessment off: an admin gets 403 naming aiEnabled and nothing changes', async () => {
      const before = (await audit('settings.evidence_updated')).length;
      const res = await api('PUT', '/api/evidence-settings', { aiEnabled: false, thresholds: null }, admin);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ field: 'aiEnabled', error: expect.stringMatching(/owner/) });
      expect((await readEvidenceSettings(engine.db(), owner.org.id)).aiEnabled).toBe(true);
      expect((await audit('settings.evidence_updated')).length).toBe(before);
      // Sending the value it already has is no change: an admin may save the rest of the form.
      expect((await api('PUT', '/api/evidence-settings', { aiEnabled: true, thresholds: null }, admin)).statusCode).toBe(200);
      const off = await api('PUT', '/api/evidence-settings', { aiEnabled: false });
      expect(off.statusCode).toBe(200);
      expect(off.json()).toMatchObject({ aiEnabled: false, thresholdsAreDefault: true });
      expect((await readEvidenceSettings(engine.db(), owner.org.id)).aiEnabled).toBe(false);
      expect((await audit('settings.evidence_updated')).at(-1)!.data).toMatchObject({ changed: ['aiEnabled'], aiEnabled: false });
    });

    it('refuses a member\'s change with 403', async () => {
      expect((await api('PUT', '/api/evidence-settings', { thresholds: { rateDrop: 0.3 } }, member)).statusCode).toBe(403);
    });
  });

  it('answers any body with 200, 400 or 403, never a 5xx, and writes nothing (row and audit) unless it answers 200', async () => {
    const anything = fc.oneof(fc.constant(undefined), fc.constant(null), fc.integer(), fc.double(), fc.string(), fc.boolean(),
      fc.dictionary(fc.constantFrom('errorRatioPoints', 'downMinutes', 'rateDrop', 'preset', 'rate', 'p95', 'errorRatio', 'serviceLabel', 'x'), fc.oneof(fc.double(), fc.string(), fc.constant('$range $offset $by'))));
    const body = fc.record({ thresholds: anything, redTemplates: anything, aiEnabled: fc.oneof(fc.boolean(), fc.string()), kind: fc.constantFrom('prometheus', 'loki', 'elasticsearch', 'otlp', 'x'), name: fc.string(), url: fc.oneof(fc.webUrl(), fc.string()), config: anything }, { requiredKeys: [] });
    await fc.assert(fc.asyncProperty(body, fc.constantFrom<[string, string]>(['PUT', '/api/evidence-settings'], ['POST', '/api/evidence-sources']), async (b, [method, url]) => {
      const before = { rows: await rows(), audit: (await listAuditEvents(engine.db(), owner.org.id, {}, 1)).items[0]?.seq };
      expect(before.audit).toEqual(expect.any(Number));
      const res = await api(method as 'PUT' | 'POST', url, b, admin);
      expect([200, 201, 400, 403]).toContain(res.statusCode);
      if (res.statusCode >= 400) {
        expect(res.json().error).toEqual(expect.any(String));
        expect(await rows()).toBe(before.rows);
        expect((await listAuditEvents(engine.db(), owner.org.id, {}, 1)).items[0]?.seq).toBe(before.audit);
      }
    }), { numRuns: 40 });
  }, 120_000);
});
