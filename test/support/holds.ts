import { expect } from 'vitest';
import type { JobWorker } from '../../src/platform/jobs/job-worker.js';
import { testCtx, type SignedIn, type TestApp } from './test-app.js';

/** A catalogue whose checkout service runs on a dedicated host and is watched by a source of its own. */
export const HOLD_ESTATE = `
format: changeledger/catalogue/1
entities:
  - { key: "svc:checkout", kind: service, name: checkout, tier: standard }
  - { key: "svc:search", kind: service, name: search, tier: standard }
  - { key: "host:db-1", kind: host, name: db-1 }
links:
  - { from: "svc:checkout", to: "host:db-1", via: runs-on }
sources:
  - { id: "checkout-probes", name: "Checkout probes", services: ["svc:checkout"] }
`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The HTTP calls a holds test makes, as the owner on the main listener and as Alertmanager on the pipeline listener. */
export function holdsApi(t: () => TestApp, owner: () => SignedIn, alertsToken: () => string) {
  return {
    get: (url: string) => t().main.inject({ method: 'GET', url, headers: owner().headers }),
    post: (url: string, payload: unknown = {}) => t().main.inject({ method: 'POST', url, headers: owner().headers, payload: payload as Json }),
    put: (url: string, payload: unknown) => t().main.inject({ method: 'PUT', url, headers: owner().headers, payload: payload as Json }),
    /** Alertmanager's webhook v4 with the given alerts. */
    webhook: (alerts: Array<{ status: 'firing' | 'resolved'; labels: Record<string, string>; startsAt: string; endsAt?: string }>) => t().pipeline.inject({
      method: 'POST', url: '/api/alerts/alertmanager', headers: { authorization: `Bearer ${alertsToken()}` },
      payload: {
        version: '4', groupKey: '{}:{alertname="Down"}', status: 'firing', receiver: 'changeledger', groupLabels: {}, commonLabels: {}, commonAnnotations: {},
        externalURL: 'http://am.example:9093', truncatedAlerts: 0, alerts: alerts.map((a) => ({ endsAt: '0001-01-01T00:00:00Z', ...a })),
      },
    }),
  };
}

/** Sets up an organisation for holds: catalogue, no approval gate, a token Alertmanager posts with. */
export async function prepareHoldsOrg(t: TestApp, owner: SignedIn, createToken: (t: TestApp, s: SignedIn, scopes: string[], name?: string) => Promise<{ secret: string }>): Promise<string> {
  const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: HOLD_ESTATE });
  expect(imp.statusCode, imp.body).toBe(200);
  const s = await t.main.inject({ method: 'PUT', url: `/api/organizations/${owner.org.id}/change-settings`, headers: owner.headers, payload: { approvalRequired: 'none' } });
  expect(s.statusCode, s.body).toBe(200);
  return (await createToken(t, owner, ['alerts:write'], 'alertmanager')).secret;
}

/** A signed webhook destination of the organisation, posting to `url` (a loopback receiver), made as Settings → Alert sources makes it. */
export async function relayTo(t: TestApp, owner: SignedIn, url: string): Promise<void> {
  await t.services.alertSettings.createDestination(testCtx, { org: owner.org, role: 'owner' }, { kind: 'webhook', name: 'on-call hook', url });
}

/** Silence mode with one Alertmanager at `url` (no auth), as Settings → Alert sources sets it. */
export async function silenceModeWith(t: TestApp, owner: SignedIn, url: string, name = 'am-1'): Promise<void> {
  const m = { org: owner.org, role: 'owner' };
  await t.services.alertSettings.updateSettings(testCtx, m, { holdMode: 'silence' });
  await t.services.alertSettings.createAlertmanager(testCtx, m, { name, url, auth: { kind: 'none' } });
}

/** Runs every due job of the app's worker (holds, timers, deliveries) until none is left. */
export async function drain(...workers: JobWorker[]): Promise<void> {
  for (let round = 0; round < 20; round += 1) {
    let ran = 0;
    for (const w of workers) ran += await w.runOnce();
    if (ran === 0) return;
  }
}
