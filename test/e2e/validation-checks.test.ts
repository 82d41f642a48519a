import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettableClock } from '../../src/platform/clock.js';
import { describeEachEngine } from '../support/engines.js';
import { startFlipExporter, type FlipExporter } from '../support/flip-exporter.js';
import { missingPeers, PEER_TEST_TIMEOUT_MS } from '../support/peer-process.js';
import { startPrometheus, type Prometheus } from '../support/prometheus.js';
import { PASSWORD, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../support/test-app.js';

/**
 * A change's validation plan, checked 30 s after it finished: PromQL items read from Debian's
 * Prometheus (scraping a loopback exporter whose gauges the test sets), HTTP items from a loopback
 * server. Exactly the listed items get a row; a read that cannot answer is not observed.
 */

const skip = missingPeers('validation-checks', ['prometheus']).length > 0;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describeEachEngine('the validation plan, checked after the finish', (engine) => {
  const clock = new SettableClock(new Date());
  let t: TestApp;
  let owner: SignedIn;
  let exporter: FlipExporter;
  let prom: Prometheus;
  let health: Server;
  let healthUrl: string;
  let healthStatus = 200;

  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Json) => t.main.inject({ method, url, headers: owner.headers, ...(payload === undefined ? {} : { payload }) });
  const drain = async () => {
    while ((await t.services.worker.runOnce()) > 0);
  };

  beforeAll(async () => {
    if (skip) return;
    exporter = await startFlipExporter();
    exporter.set('checkout_error_ratio', { service: 'checkout' }, 0.01);
    exporter.set('checkout_p95_seconds', { service: 'checkout' }, 1.5);
    prom = await startPrometheus({ scrape: [exporter.target], rules: [], alertmanagers: [] });
    health = createServer((_req, res) => res.writeHead(healthStatus).end('ok'));
    await new Promise<void>((r) => health.listen(0, '127.0.0.1', r));
    healthUrl = `http://127.0.0.1:${(health.address() as { port: number }).port}/healthz`;
    // Two scrapes, so an instant query finds both gauges.
    const until = Date.now() + 30_000;
    while (exporter.scrapes() < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    t = await testApp(engine.db(), { clock });
    const created = await t.services.auth.createOrganizationWithOwner(testCtx, { name: 'Validation', email: `vera-${Math.random().toString(36).slice(2, 8)}@acme.dev`, password: PASSWORD });
    owner = await signIn(t, created.org, created.owner, PASSWORD);
    expect((await api('PUT', `/api/organizations/${owner.org.id}/change-settings`, { approvalRequired: 'none', allowPrivateCallbacks: true })).statusCode).toBe(200);
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: 'entities:\n  - { key: "svc:checkout", kind: service, name: checkout, tier: standard }\n' });
    expect(imp.statusCode, imp.body).toBe(200);
    const source = await api('POST', '/api/evidence-sources', { kind: 'prometheus', name: 'Prometheus', url: prom.url });
    expect(source.statusCode, source.body).toBe(201);
  }, PEER_TEST_TIMEOUT_MS);
  afterAll(async () => {
    await t?.close();
    await prom?.stop();
    await exporter?.close();
    health?.close();
  });

  const run = async (plan: Json[]) => {
    // Prometheus answers for real time: the app's clock starts from now, so a check 31 s after the
    // finish never asks for an instant before the exporter's first scrape (a busy machine lags).
    clock.set(new Date());
    const r = await api('POST', '/api/changes', { title: 'Tune checkout', kind: 'config', startNow: true, components: [{ key: 'svc:checkout' }], validationPlan: plan });
    expect(r.statusCode, r.body).toBe(201);
    const id = r.json().change.id as string;
    expect((await api('POST', `/api/changes/${id}/complete`, { outcome: 'success' })).statusCode).toBe(200);
    await drain();
    const before = (await api('GET', `/api/changes/${id}/validation`)).json();
    expect(before).toMatchObject({ result: null, checkedAt: null, rows: [] });
    clock.advance(31_000);
    await drain();
    return { id, view: (await api('GET', `/api/changes/${id}/validation`)).json() as Json };
  };

  describe.skipIf(skip)('with Debian\'s Prometheus', () => {
    it('a listed item that fails decides still_present; a query with no series is not observed, never a pass', async () => {
      const { id, view } = await run([
        { id: 'errors', target: 'checkout', check: 'promql', query: 'max(checkout_error_ratio{service="checkout"})', expected: { op: '<', value: 0.05 } },
        { id: 'latency', target: 'checkout', check: 'promql', query: 'max(checkout_p95_seconds{service="checkout"})', expected: { op: '<', value: 0.5 } },
        { id: 'health', target: 'checkout', check: 'http', url: healthUrl, expected: { op: '==', value: 200 } },
        { id: 'ghost', target: 'checkout', check: 'promql', query: 'no_such_metric', expected: { op: '==', value: 1 } },
      ]);
      expect(view.result).toBe('still_present');
      expect(view.reason).toMatch(/latency/);
      expect(Object.fromEntries(view.rows.map((r: Json) => [r.itemId, r.state]))).toEqual({ errors: 'pass', latency: 'fail', health: 'pass', ghost: 'not_observed' });
      expect(view.rows.find((r: Json) => r.itemId === 'ghost').detail).toMatch(/no series/);
      const status = (await api('GET', `/api/changes/${id}/status`)).json();
      expect(status.validation).toMatchObject({ items: 4, result: 'still_present' });
      const audit = (await api('GET', `/api/audit?action=change.validated&targetId=${id}`)).json();
      expect(audit.items[0].data).toMatchObject({ result: 'still_present' });
    }, PEER_TEST_TIMEOUT_MS);

    it('every listed item observed passing is cleared; an unreadable URL leaves it uncertain', async () => {
      const cleared = await run([
        { id: 'errors', target: 'checkout', check: 'promql', query: 'max(checkout_error_ratio)', expected: { op: '<=', value: 0.01 } },
        { id: 'health', target: 'checkout', check: 'http', url: healthUrl, expected: { op: '==', value: 200 } },
      ]);
      expect(cleared.view).toMatchObject({ result: 'cleared' });
      healthStatus = 503;
      const failing = await run([{ id: 'health', target: 'checkout', check: 'http', url: healthUrl, expected: { op: '==', value: 200 } }]);
      expect(failing.view.rows[0]).toMatchObject({ state: 'fail', observed: '503' });
      const unreadable = await run([{ id: 'gone', target: 'checkout', check: 'http', url: 'http://127.0.0.1:9/healthz', expected: { op: '==', value: 200 } }]);
      expect(unreadable.view).toMatchObject({ result: 'uncertain', rows: [{ itemId: 'gone', state: 'not_observed' }] });
    }, PEER_TEST_TIMEOUT_MS);
  });
});
