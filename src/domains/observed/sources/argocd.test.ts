import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { docsNotificationsConfig, renderArgoBody } from '../../../../test/support/argocd-notifications.js';
import { AppError } from '../../../platform/errors.js';
import type { AdapterContext, IntakeRequest } from '../observed-types.js';
import { argocdIntake, parseArgocd } from './argocd.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const SHARED = join(ROOT, '..', 'shared', 'fixtures', 'real', 'argocd');
const hasShared = existsSync(SHARED);
if (!hasShared) console.warn(`argocd: SKIPPING the shared real-payload tests: ${SHARED} is absent`);
const DOCS = join(ROOT, 'docs', 'observed.md');
const OWN = join(ROOT, 'test', 'fixtures', 'observed', 'argocd-application-checkout.yaml');

const ctx: AdapterContext = { sourceId: 'src_argo', config: {}, ciNamespaces: [], now: new Date('2026-12-01T12:00:00Z') };
const yamlOf = (path: string) => parseYaml(readFileSync(path, 'utf8')) as Record<string, unknown>;
const cfg = docsNotificationsConfig(DOCS);
/** The body the docs' template for one trigger renders from an Application. */
const rendered = (template: string, app: unknown) => JSON.parse(renderArgoBody(cfg.bodies[template]!, { app, context: cfg.context })) as Record<string, unknown>;
const one = (body: unknown) => {
  const p = parseArgocd(body, ctx);
  expect(p.events).toHaveLength(1);
  return p.events[0]!;
};
function badField(body: unknown): string | undefined {
  try {
    parseArgocd(body, ctx);
  } catch (e) {
    if (e instanceof AppError && e.status === 400) return e.field;
    throw e;
  }
  throw new Error('parsed without a 400');
}
const base = {
  event: 'sync-succeeded', app: 'web', appNamespace: 'argocd', uid: 'u-1', labels: {}, destination: { name: 'prod-eu', namespace: 'web' },
  repoURL: 'https://github.com/acme/web.git', revision: 'a'.repeat(40), finishedAt: '2026-11-30T09:00:00Z', initiatedBy: { username: 'ana@example.com' },
  argocdUrl: 'https://argocd.example.com',
};

describe('the notifications ConfigMap in docs/observed.md', () => {
  it('sends all three triggers to the changeledger webhook with the connection secret as a bearer', () => {
    expect(cfg.service.url).toMatch(/\/v1\/changes\/argocd\/<connection id>$/);
    expect(cfg.service.headers).toContainEqual({ name: 'Authorization', value: 'Bearer $changeledger-secret' });
    expect(cfg.subscriptions[0]).toEqual({
      recipients: ['changeledger'], triggers: ['changeledger-on-sync-succeeded', 'changeledger-on-sync-failed', 'changeledger-on-health-degraded'],
    });
    expect(Object.values(cfg.triggers).map((t) => t[0]!.send[0])).toEqual(['changeledger-sync-succeeded', 'changeledger-sync-failed', 'changeledger-health-degraded']);
    // The catalog's on-health-degraded condition (argo-cd notifications_catalog/triggers/on-health-degraded.yaml).
    expect(cfg.triggers['changeledger-on-health-degraded']![0]!.when).toBe("app.status.health.status == 'Degraded'");
  });

  it('renders, for our own Application, bodies the adapter records: service from the label, receipt id, environment, automated sync', () => {
    const app = yamlOf(OWN);
    const e = one(rendered('changeledger-sync-succeeded', app));
    expect(e).toMatchObject({
      kind: 'sync', outcome: 'succeeded', serviceHint: 'checkout', repo: 'acme/checkout-deploy', occurredAt: '2026-11-30T10:01:58.000Z',
      location: { cluster: 'https://10.0.0.1:6443', namespace: 'checkout', environment: 'production' },
      principal: { kind: 'service', name: 'argocd (automated sync)' }, changeRef: 'CHG-1A2B3C4D',
      eventId: '0f6c1a52-5d0e-4c0b-9d55-3f7f2b1e9a10:sync:5e1f0c2a9b8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f:2026-11-30T10:01:58.000Z',
      title: 'Argo CD synced checkout-prod to 5e1f0c2', link: 'https://argocd.example.com/applications/argocd/checkout-prod',
    });
    expect(e.diff).toContain('Deployment checkout/checkout: Synced (deployment.apps/checkout configured)');
    const h = one(rendered('changeledger-health-degraded', app));
    expect(h).toMatchObject({ kind: 'health', outcome: 'degraded', changeRef: null, principal: { kind: 'system', name: 'argocd' }, occurredAt: '2026-11-30T10:02:11.000Z' });
  });

  it('renders for an Application that never synced (no operationState), and a sync without finishedAt is refused by name', () => {
    const app = { metadata: { name: 'fresh', namespace: 'argocd' }, spec: { destination: { name: 'in-cluster' } }, status: { health: { status: 'Degraded' } } };
    expect(one(rendered('changeledger-health-degraded', app))).toMatchObject({ kind: 'health', serviceHint: 'fresh', eventId: 'argocd/fresh:health:-:-' });
    expect(badField(rendered('changeledger-sync-failed', app))).toBe('finishedAt');
  });
});

describe.skipIf(!hasShared)('the real Argo CD fixtures (../shared/fixtures/real/argocd)', () => {
  const real = () => yamlOf(join(SHARED, 'application-sync-succeeded-healthy.yaml'));

  it('the docs\' sync triggers are the catalog\'s own conditions', () => {
    for (const name of ['on-sync-succeeded', 'on-sync-failed']) {
      const catalog = parseYaml(readFileSync(join(SHARED, `notifications-trigger-${name}.yaml`), 'utf8')) as Array<{ when: string; oncePer: string }>;
      const ours = cfg.triggers[`changeledger-${name}`]![0]!;
      expect({ when: ours.when, oncePer: ours.oncePer }).toEqual({ when: catalog[0]!.when, oncePer: catalog[0]!.oncePer });
    }
  });

  it('a real succeeded sync: who synced, the app as the service, the repository, cluster and namespace, one line per resource', () => {
    const e = one(rendered('changeledger-sync-succeeded', real()));
    expect(e).toMatchObject({
      kind: 'sync', outcome: 'succeeded', serviceHint: 'velero-test', repo: 'foo/manifests-velero',
      principal: { kind: 'person', name: 'foo@example.com' }, location: { cluster: 'gke-alpha-01-europe-west1', namespace: 'test-lla' },
      occurredAt: '2024-03-05T07:33:04.000Z', changeRef: null,
      eventId: '94978696-4fd4-40b3-a1de-38d9df9e9316:sync:ea8759964626a583667a2bfd08f334ec2070040a:2024-03-05T07:33:04.000Z',
    });
    expect(e.diff!.split('\n')).toEqual(expect.arrayContaining(['successfully synced (all tasks run)', 'Deployment test-lla/test-lla: Synced (deployment.apps/test-lla serverside-applied)']));
  });

  it('the real degraded health, on the real application, is a health row with outcome degraded', () => {
    const app = real();
    const degraded = yamlOf(join(SHARED, 'application-health-degraded.yaml')) as { status: { health: unknown } };
    (app.status as Record<string, unknown>).health = degraded.status.health;
    const e = one(rendered('changeledger-health-degraded', app));
    expect(e).toMatchObject({ kind: 'health', outcome: 'degraded', title: 'Argo CD: velero-test is degraded', serviceHint: 'velero-test' });
  });

  it('the real application, its sync marked failed, is a failed sync whose title says why', () => {
    const app = real();
    const op = (app.status as { operationState: Record<string, unknown> }).operationState;
    Object.assign(op, { phase: 'Failed', message: 'one or more objects failed to apply' });
    const e = one(rendered('changeledger-sync-failed', app));
    expect(e).toMatchObject({ kind: 'sync', outcome: 'failed', title: 'Argo CD sync of velero-test failed: one or more objects failed to apply' });
  });
});

describe('argocdIntake rules (our own bodies)', () => {
  it('authenticates with the connection secret as a bearer only', async () => {
    const req = (authorization?: string): IntakeRequest => ({ headers: authorization ? { authorization } : {}, rawBody: Buffer.from('{}'), body: {} });
    expect(await argocdIntake.authenticate(req('Bearer s3cret'), 's3cret')).toBe(true);
    expect(await argocdIntake.authenticate(req('Bearer wrong'), 's3cret')).toBe(false);
    expect(await argocdIntake.authenticate(req(), 's3cret')).toBe(false);
  });

  it('a retried notification has the same event id; another finishedAt is another sync', () => {
    expect(one(base).eventId).toBe(one({ ...base }).eventId);
    expect(one({ ...base, finishedAt: '2026-11-30T10:00:00Z' }).eventId).not.toBe(one(base).eventId);
  });

  it('sync-failed is outcome failed and never a receipt, even with a change id', () => {
    const e = one({ ...base, event: 'sync-failed', changeId: 'CHG-1A2B3C4D', message: 'ComparisonError' });
    expect(e).toMatchObject({ outcome: 'failed', changeRef: null, title: 'Argo CD sync of web failed: ComparisonError' });
  });

  it('a change id not in CHG- form is not a receipt', () => {
    expect(one({ ...base, changeId: 'JIRA-12' }).changeRef).toBeNull();
    expect(one({ ...base, changeId: 'CHG-abcdef12' }).changeRef).toBe('CHG-ABCDEF12');
  });

  it('health is keyed by when it changed; two degradations of one revision with healthSince are two rows', () => {
    const a = one({ ...base, event: 'health-degraded', healthSince: '2026-11-30T09:10:00Z' });
    const b = one({ ...base, event: 'health-degraded', healthSince: '2026-11-30T11:00:00Z' });
    expect(a.eventId).not.toBe(b.eventId);
    expect(a).toMatchObject({ kind: 'health', occurredAt: '2026-11-30T09:10:00.000Z', diff: null });
  });

  it('the repository comes from repoURL in any Git form, else the first source; a chart repository root is none', () => {
    expect(one({ ...base, repoURL: 'ssh://git@gitlab.example.com/group/sub/app.git' }).repo).toBe('group/sub/app');
    expect(one({ ...base, repoURL: '', sources: [{ chart: 'x', repoURL: 'https://github.com/acme/multi' }] }).repo).toBe('acme/multi');
    expect(one({ ...base, repoURL: 'https://charts.example.com' }).repo).toBeNull();
  });

  it('a trigger the adapter does not record is ignored, not refused', () => {
    for (const event of ['sync-running', 'toString', 'constructor']) expect(parseArgocd({ ...base, event }, ctx)).toEqual({ events: [], ignored: 1, noise: 0, rejected: [] });
  });

  it.each([
    [{ ...base, event: undefined }, 'event'],
    [{ ...base, app: '' }, 'app'],
    [{ ...base, finishedAt: 'yesterday' }, 'finishedAt'],
    [{ ...base, argocdUrl: 'javascript:alert(1)' }, 'argocdUrl'],
    [{ ...base, labels: 'app=web' }, 'labels'],
    [{ ...base, resources: {} }, 'resources'],
    ['not an object', 'body'],
  ])('a malformed body is a 400 naming the field (%#)', (body, field) => {
    expect(badField(body)).toBe(field);
  });

  it('any JSON whatever is recorded, ignored or refused with a 400 naming a field, never another error', () => {
    const field = fc.oneof(fc.jsonValue(), fc.constantFrom('sync-succeeded', 'sync-failed', 'health-degraded', '2026-11-30T09:00:00Z', 'https://x.example'));
    fc.assert(fc.property(fc.oneof(fc.jsonValue(), fc.record({ event: field, app: field, finishedAt: field, healthSince: field, labels: field, destination: field, initiatedBy: field, resources: field, sources: field, argocdUrl: field, changeId: field }, { requiredKeys: [] })), (body) => {
      try {
        const p = parseArgocd(body, ctx);
        expect(p.events.length + p.ignored).toBe(1);
      } catch (e) {
        expect(e).toBeInstanceOf(AppError);
        expect([(e as AppError).status, typeof (e as AppError).field]).toEqual([400, 'string']);
      }
    }));
  });
});
