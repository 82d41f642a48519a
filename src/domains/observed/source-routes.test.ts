import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { PASSWORD, signIn, signedInOwner, testApp, testCtx, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { listAuditEvents } from '../ledger/index.js';
import { PIPELINE_PLACEHOLDER } from './source-service.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describeEachEngine('Settings → Change sources API', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let admin: SignedIn;
  let member: SignedIn;
  const audit = async (action: string) => (await listAuditEvents(engine.db(), owner.org.id, { action }, 200)).items.filter((e) => e.action === action);
  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, who: SignedIn = owner) =>
    t.main.inject({ method, url, headers: who.headers, ...(payload === undefined ? {} : { payload: payload as Json }) });
  const count = async (table: string) => Number((await engine.db().query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n);
  const written = async () => ({ sources: await count('change_sources'), settings: await count('observed_settings'), audit: await count('audit_events'), jobs: await count('jobs') });

  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Sources');
    const add = async (role: 'admin' | 'member') => {
      const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: `${role}${Math.random().toString(36).slice(2)}@x.test`, role, password: PASSWORD });
      return signIn(t, owner.org, user, PASSWORD);
    };
    admin = await add('admin');
    member = await add('member');
  });
  afterAll(() => t.close());

  describe('connections', () => {
    it('adds a generic webhook: 201 with its secret once and the endpoint to paste; sealed, hashed, audited without the secret', async () => {
      const res = await api('POST', '/api/change-sources', { kind: 'webhook', name: 'Deploy bot' });
      expect(res.statusCode).toBe(201);
      const { source, secret } = res.json() as { source: Json; secret: string };
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(source).toMatchObject({ kind: 'webhook', name: 'Deploy bot', config: {}, hasCredential: false, pullEnabled: true, pullable: false, lastEventAt: null, markers: { scheduled: null, manual: null } });
      expect(source.endpoint).toBe(`${PIPELINE_PLACEHOLDER}/v1/changes/webhook/${source.id}`);
      expect(source.counts).toEqual({ recorded: 0, duplicate: 0, enriched: 0, noise: 0, capped: 0, denied: 0, ignored: 0, rejected: 0, receipts: 0 });
      const row = (await engine.db().query<{ secret_sealed: string; secret_hash: string }>('SELECT secret_sealed, secret_hash FROM change_sources WHERE id = $1', [source.id])).rows[0]!;
      expect(row.secret_sealed).not.toContain(secret);
      expect(row.secret_hash).toBe(createHash('sha256').update(secret).digest('hex'));
      const [ev] = (await audit('change_source.created')).filter((e) => e.target?.id === source.id);
      expect(ev!.data).toEqual({ kind: 'webhook', name: 'Deploy bot', config: {}, hasCredential: false, pullEnabled: true });
      expect(JSON.stringify(ev)).not.toContain(secret);
      // Never again: not in the list, not in one connection's answer.
      const list = await api('GET', '/api/change-sources', undefined, member);
      expect(list.statusCode).toBe(200);
      expect(list.body).not.toContain(secret);
      expect((list.json().sources as Json[]).map((s) => s.id)).toContain(source.id);
      const one = await api('GET', `/api/change-sources/${source.id}`, undefined, member);
      expect(one.statusCode).toBe(200);
      expect(one.body).not.toContain(secret);
    });

    it('a PagerDuty connection posts to PagerDuty\'s own path, with a routing key of 32 hex characters', async () => {
      const res = await api('POST', '/api/change-sources', { kind: 'pagerduty', name: 'PD-compatible tools' });
      expect(res.statusCode).toBe(201);
      expect(res.json().secret).toMatch(/^[0-9a-f]{32}$/);
      expect(res.json().source.endpoint).toBe(`${PIPELINE_PLACEHOLDER}/v2/change/enqueue`);
    });

    it('a self-managed GitLab on the organisation\'s own network: a private API address is kept (metadata and link-local never are)', async () => {
      const res = await api('POST', '/api/change-sources', { kind: 'gitlab', name: 'GitLab inside', config: { apiUrl: 'http://10.1.2.3/api/v4/', projects: ['shop/checkout'] }, credential: 'glpat-inside' }, admin);
      expect(res.statusCode, res.body).toBe(201);
      expect((res.json().source as Json).config).toMatchObject({ apiUrl: 'http://10.1.2.3/api/v4' });
    });

    it('a GitHub connection: the public API by default, its token write-only, scheduled for its first pull', async () => {
      const res = await api('POST', '/api/change-sources', { kind: 'github', name: 'GitHub acme', config: { repos: ['acme/checkout', 'acme/checkout'] }, credential: 'ghp_s3cr3t-token' }, admin);
      expect(res.statusCode).toBe(201);
      const s = res.json().source as Json;
      expect(s).toMatchObject({ kind: 'github', config: { apiUrl: 'https://api.github.com', repos: ['acme/checkout'] }, hasCredential: true, pullable: true, notPulledBecause: null });
      expect(res.body).not.toContain('ghp_s3cr3t');
      const row = (await engine.db().query<{ credential_sealed: string }>('SELECT credential_sealed FROM change_sources WHERE id = $1', [s.id])).rows[0]!;
      expect(row.credential_sealed).not.toContain('ghp_s3cr3t');
      const jobs = await engine.db().query<{ run_at: Date }>(`SELECT run_at FROM jobs WHERE kind = 'observed.pull' AND payload->>'sourceId' = $1 AND status = 'pending'`, [s.id]);
      expect(jobs.rows).toHaveLength(1);
      const [ev] = (await audit('change_source.created')).filter((e) => e.target?.id === s.id);
      expect(JSON.stringify(ev)).not.toContain('ghp_s3cr3t');
      expect(ev!.actor).toMatchObject({ kind: 'user', id: admin.user.id });
    });

    it('GitLab, AWS and Kubernetes: their settings checked and filled in', async () => {
      const gl = await api('POST', '/api/change-sources', { kind: 'gitlab', name: 'GitLab', config: { projects: ['42', 'acme/platform/api'] }, credential: 'glpat-xyz' });
      expect(gl.statusCode).toBe(201);
      expect(gl.json().source.config).toEqual({ apiUrl: 'https://gitlab.com/api/v4', projects: ['42', 'acme/platform/api'] });
      const aws = await api('POST', '/api/change-sources', { kind: 'aws', name: 'AWS prod', config: { regions: ['eu-west-1'], endpoint: 'https://cloudtrail.eu-west-1.amazonaws.com/' }, credential: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI' } });
      expect(aws.statusCode).toBe(201);
      expect(aws.json().source.config).toEqual({ regions: ['eu-west-1'], endpoint: 'https://cloudtrail.eu-west-1.amazonaws.com' });
      expect(aws.body).not.toContain('wJalrXUtnFEMI');
      const k8s = await api('POST', '/api/change-sources', { kind: 'kubernetes', name: 'prod-eu-1' });
      expect(k8s.statusCode).toBe(201);
      expect(k8s.json().source).toMatchObject({ config: { cluster: 'prod-eu-1' }, notPulledBecause: 'a kubernetes connection has no API to pull: its sender pushes' });
    });

    it('refuses bad input with 400 naming the field, in words, and writes nothing', async () => {
      const before = await written();
      const cases: Array<[Json, string, RegExp]> = [
        [{ kind: 'svn', name: 'x' }, 'kind', /./],
        [{ kind: 'webhook', name: '   ' }, 'name', /required/],
        [{ kind: 'webhook', name: 'a\tb' }, 'name', /control characters/],
        [{ kind: 'webhook', name: 'W', config: { url: 'http://x' } }, 'config.url', /not a setting of a webhook connection \(it has none\)/],
        [{ kind: 'webhook', name: 'W', credential: 'tok' }, 'credential', /not used by a webhook connection/],
        [{ kind: 'github', name: 'G', config: { repos: ['checkout'] } }, 'config.repos.0', /owner\/name/],
        [{ kind: 'github', name: 'G', config: { apiUrl: 'http://169.254.169.254/' } }, 'config.apiUrl', /never be reached/],
        [{ kind: 'github', name: 'G', config: { apiUrl: 'ftp://github.example' } }, 'config.apiUrl', /http or https/],
        [{ kind: 'github', name: 'G', config: { apiUrl: 'https://u:p@github.example' } }, 'config.apiUrl', /credentials/],
        [{ kind: 'github', name: 'G', credential: 'two words' }, 'credential', /without spaces/],
        [{ kind: 'gitlab', name: 'L', config: { projects: ['a b'] } }, 'config.projects.0', /numeric id or a path/],
        [{ kind: 'aws', name: 'A' }, 'config.regions', /required/],
        [{ kind: 'aws', name: 'A', config: { regions: ['Ireland'] } }, 'config.regions.0', /AWS regions/],
        [{ kind: 'aws', name: 'A', config: { regions: ['eu-west-1'] }, credential: { accessKeyId: 'AKIA' } }, 'credential.secretAccessKey', /required/],
        [{ kind: 'azure', name: 'Z', config: { subscription: 'prod' } }, 'config.subscription', /GUID/],
        [{ kind: 'webhook', name: 'W', config: [] }, 'config', /object/],
      ];
      for (const [body, field, words] of cases) {
        const res = await api('POST', '/api/change-sources', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().field, JSON.stringify(body)).toBe(field);
        expect(res.json().error, JSON.stringify(body)).toMatch(words);
      }
      expect(await written()).toEqual(before);
    });

    it('a second connection of the same name is 409, nothing written', async () => {
      await api('POST', '/api/change-sources', { kind: 'argocd', name: 'Argo prod' });
      const before = await written();
      const res = await api('POST', '/api/change-sources', { kind: 'argocd', name: 'Argo prod' });
      expect(res.statusCode).toBe(409);
      expect(await written()).toEqual(before);
    });

    it('members read but cannot write: 403 on every write, nothing written', async () => {
      const { source } = (await api('POST', '/api/change-sources', { kind: 'webhook', name: 'Member test' })).json() as { source: Json };
      const before = await written();
      const writes: Array<[('POST' | 'PUT' | 'DELETE'), string, unknown]> = [
        ['POST', '/api/change-sources', { kind: 'webhook', name: 'm' }],
        ['PUT', `/api/change-sources/${source.id}`, { name: 'renamed' }],
        ['DELETE', `/api/change-sources/${source.id}`, undefined],
        ['POST', `/api/change-sources/${source.id}/rotate-secret`, undefined],
        ['POST', `/api/change-sources/${source.id}/test`, undefined],
        ['POST', `/api/change-sources/${source.id}/pull`, { minutes: 5 }],
        ['PUT', '/api/observed-settings', { pullIntervalSeconds: 0 }],
      ];
      for (const [method, url, body] of writes) expect((await api(method, url, body, member)).statusCode, `${method} ${url}`).toBe(403);
      expect(await written()).toEqual(before);
      expect((await api('GET', '/api/observed-settings', undefined, member)).statusCode).toBe(200);
    });

    it('the pipeline listener does not know these routes', async () => {
      expect((await t.pipeline.inject({ method: 'GET', url: '/api/change-sources' })).statusCode).toBe(404);
    });

    it('PUT renames, opts out and removes the credential, audited with what changed; a PUT that changes nothing writes nothing', async () => {
      const { source } = (await api('POST', '/api/change-sources', { kind: 'github', name: 'To edit', config: { repos: ['acme/a'] }, credential: 'ghp_1' })).json() as { source: Json };
      const res = await api('PUT', `/api/change-sources/${source.id}`, { name: 'Edited', pullEnabled: false, credential: null });
      expect(res.statusCode).toBe(200);
      expect(res.json().source).toMatchObject({ name: 'Edited', pullEnabled: false, hasCredential: false, config: { repos: ['acme/a'] } });
      const [ev] = (await audit('change_source.updated')).filter((e) => e.target?.id === source.id);
      expect(ev!.data).toMatchObject({ changed: ['name', 'credential', 'pullEnabled'], hasCredential: false, pullEnabled: false });
      const before = await written();
      const same = await api('PUT', `/api/change-sources/${source.id}`, { name: 'Edited', pullEnabled: false });
      expect(same.statusCode).toBe(200);
      expect(await written()).toEqual(before);
      const kind = await api('PUT', `/api/change-sources/${source.id}`, { kind: 'gitlab' });
      expect(kind.statusCode).toBe(400);
      expect(kind.json().field).toBe('kind');
      expect(await written()).toEqual(before);
      expect((await api('PUT', '/api/change-sources/src_nope', { name: 'x' })).statusCode).toBe(404);
    });

    it('rotating answers a new secret once, replaces the hash and is audited', async () => {
      const made = (await api('POST', '/api/change-sources', { kind: 'cloudevents', name: 'CDEvents' })).json() as { source: Json; secret: string };
      const res = await api('POST', `/api/change-sources/${made.source.id}/rotate-secret`);
      expect(res.statusCode).toBe(200);
      const { secret } = res.json() as { secret: string };
      expect(secret).not.toBe(made.secret);
      const row = (await engine.db().query<{ secret_hash: string }>('SELECT secret_hash FROM change_sources WHERE id = $1', [made.source.id])).rows[0]!;
      expect(row.secret_hash).toBe(createHash('sha256').update(secret).digest('hex'));
      const [ev] = (await audit('change_source.secret_rotated')).filter((e) => e.target?.id === made.source.id);
      expect(ev!.data).toEqual({ kind: 'cloudevents', name: 'CDEvents' });
      expect(JSON.stringify(ev)).not.toContain(secret);
      expect((await api('GET', `/api/change-sources/${made.source.id}`)).body).not.toContain(secret);
    });

    it('Test on a pushed source says no event has arrived yet and gives the curl line; audited', async () => {
      const { source } = (await api('POST', '/api/change-sources', { kind: 'webhook', name: 'Curl me' })).json() as { source: Json };
      const res = await api('POST', `/api/change-sources/${source.id}/test`);
      expect(res.statusCode).toBe(200);
      const body = res.json() as { ok: boolean; message: string; curl: string };
      expect(body.ok).toBe(false);
      expect(body.message).toMatch(/^No event has arrived at .*\/v1\/changes\/webhook\/src_.* yet/);
      expect(body.curl).toContain(`'${source.endpoint}'`);
      expect(body.curl).toContain('Authorization: Bearer $CHANGELEDGER_SOURCE_SECRET');
      const [ev] = (await audit('change_source.tested')).filter((e) => e.target?.id === source.id);
      expect(ev!.data).toMatchObject({ kind: 'webhook', ok: false });
    });

    it('a manual pull of a pushed source is 409, of a bad span 400 naming minutes; nothing written', async () => {
      const { source } = (await api('POST', '/api/change-sources', { kind: 'argocd', name: 'No API' })).json() as { source: Json };
      const before = await written();
      expect((await api('POST', `/api/change-sources/${source.id}/pull`, { minutes: 60 })).statusCode).toBe(409);
      for (const minutes of [0, 10_081, 1.5]) {
        const res = await api('POST', `/api/change-sources/${source.id}/pull`, { minutes });
        expect(res.statusCode).toBe(400);
        expect(res.json().field).toBe('minutes');
      }
      expect(await written()).toEqual(before);
    });

    it('DELETE removes the connection, audited with its counts; then 404', async () => {
      const { source } = (await api('POST', '/api/change-sources', { kind: 'azure', name: 'Azure' })).json() as { source: Json };
      const res = await api('DELETE', `/api/change-sources/${source.id}`);
      expect(res.statusCode).toBe(204);
      const [ev] = (await audit('change_source.deleted')).filter((e) => e.target?.id === source.id);
      expect(ev!.data).toMatchObject({ kind: 'azure', name: 'Azure', counts: { recorded: 0 } });
      expect((await api('GET', `/api/change-sources/${source.id}`)).statusCode).toBe(404);
      expect((await api('DELETE', `/api/change-sources/${source.id}`)).statusCode).toBe(404);
    });
  });

  describe('observed-change settings', () => {
    it('answers the defaults while none are saved', async () => {
      const res = await api('GET', '/api/observed-settings', undefined, member);
      expect(res.json()).toEqual({ pullIntervalSeconds: 900, ciNamespaces: ['flux-system', 'jenkins', 'gitlab-runner', 'tekton'], serviceMap: {}, resourceMap: {}, updatedAt: null });
    });

    it('refuses argocd and the kube-* namespaces, bad globs and oversized maps with 400 naming the field; nothing written', async () => {
      const before = await written();
      const cases: Array<[Json, string, RegExp]> = [
        [{ ciNamespaces: ['argocd'] }, 'ciNamespaces.0', /Argo CD connection/],
        [{ ciNamespaces: ['jenkins', 'kube-system'] }, 'ciNamespaces.1', /cluster itself/],
        [{ serviceMap: { 'acme/[x': 'checkout' } }, 'serviceMap.acme/[x', /not a valid pattern/],
        [{ resourceMap: { 'arn:*': Array.from({ length: 11 }, (_, i) => `s${i}`) } }, 'resourceMap.arn:*', /1 to 10 services/],
        [{ pullIntervalSeconds: 86_401 }, 'pullIntervalSeconds', /86400/],
      ];
      for (const [body, field, words] of cases) {
        const res = await api('PUT', '/api/observed-settings', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().field).toBe(field);
        expect(res.json().error).toMatch(words);
      }
      expect(await written()).toEqual(before);
    });

    it('a map edit relinks the records of the last 48 hours in the same transaction, audited with the count', async () => {
      const { source } = (await api('POST', '/api/change-sources', { kind: 'webhook', name: 'Relink feed' })).json() as { source: Json };
      const at = (h: number) => new Date(t.clock.now().getTime() - h * 3_600_000).toISOString();
      const ev = (id: string, hoursAgo: number) => ({
        eventId: id, kind: 'deploy' as const, title: `deploy ${id}`, occurredAt: at(hoursAgo), principal: { kind: 'unknown' as const, name: 'ci', id: null, detail: {} },
        action: null, resource: null, location: {}, serviceHint: null, repo: 'acme/payments-api', diff: null, params: null, link: null, denied: false, errorCode: null, outcome: null, changeRef: null, capBucket: null,
      });
      await t.services.intake.record(testCtx, source.id, { events: [ev('recent', 2), ev('old', 50)], ignored: 0, noise: 0, rejected: [] }, 'webhook');
      const res = await api('PUT', '/api/observed-settings', { serviceMap: { 'acme/payments-*': 'payments' } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ serviceMap: { 'acme/payments-*': 'payments' }, relinked: 1 });
      const rows = (await engine.db().query<{ event_id: string; service: string }>('SELECT event_id, service FROM observed_changes WHERE source_id = $1 ORDER BY event_id', [source.id])).rows;
      expect(rows).toEqual([{ event_id: expect.stringMatching(/old$/), service: '' }, { event_id: expect.stringMatching(/recent$/), service: 'payments' }]);
      const [updated] = await audit('observed_settings.updated');
      expect(updated!.data).toMatchObject({ changed: ['serviceMap'], serviceMap: { 'acme/payments-*': 'payments' } });
      const [relinked] = await audit('observed.relinked');
      expect(relinked!.data).toMatchObject({ count: 1, maps: ['serviceMap'] });
      // The same PUT again changes nothing: nothing written, no relink.
      const before = await written();
      const again = await api('PUT', '/api/observed-settings', { serviceMap: { 'acme/payments-*': 'payments' } });
      expect(again.statusCode).toBe(200);
      expect(again.json().relinked).toBeNull();
      expect(await written()).toEqual(before);
    });

    it('the interval and CI namespaces are saved and audited without a relink', async () => {
      const relinks = (await audit('observed.relinked')).length;
      const res = await api('PUT', '/api/observed-settings', { pullIntervalSeconds: 300, ciNamespaces: ['jenkins', 'argo-workflows'] }, admin);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ pullIntervalSeconds: 300, ciNamespaces: ['jenkins', 'argo-workflows'], relinked: null });
      expect((await audit('observed_settings.updated'))[0]!.data).toMatchObject({ changed: ['pullIntervalSeconds', 'ciNamespaces'] });
      expect((await audit('observed.relinked')).length).toBe(relinks);
    });
  });
});
