import { Command } from 'commander';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../test/support/engines.js';
import { createToken, PASSWORD, signIn, testApp, testCtx, type TestApp } from '../../test/support/test-app.js';
import { SettableClock } from '../platform/clock.js';
import { changeCommands } from './changes.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ESTATE = 'entities:\n  - { key: "svc:web", kind: service, name: web, tier: standard }\n';

// The real app (store, routes, worker, evidence reporter) on a loopback port, its clock set by the test.
describeEachEngine('changes report and changes evaluate against the pipeline listener', (engine) => {
  const clock = new SettableClock(new Date());
  let t: TestApp;
  let env: Record<string, string>;
  let token: string;

  const cli = async (args: string[]) => {
    let out = '';
    let err = '';
    let code = -1;
    const program = new Command('changeledger').exitOverride();
    changeCommands(program, { out: (s) => void (out += s), err: (s) => void (err += s), stdin: async () => '' }, (c) => (code = c), { tty: false, env });
    await program.parseAsync(['changes', ...args], { from: 'user' });
    return { code, out, err };
  };
  const pipe = async (url: string, payload?: unknown) =>
    t.pipeline.inject({ method: url.startsWith('GET ') ? 'GET' : 'POST', url: url.replace(/^GET /, ''), headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload: payload as Json }) });
  const drain = async () => {
    while ((await t.services.worker.runOnce()) > 0);
  };

  beforeAll(async () => {
    t = await testApp(engine.db(), { clock, aiBudgetMs: 1_000 });
    const created = await t.services.auth.createOrganizationWithOwner(testCtx, { name: 'Reports', email: `owner-${Math.random().toString(36).slice(2, 8)}@acme.dev`, password: PASSWORD });
    const owner = await signIn(t, created.org, created.owner, PASSWORD);
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imp.statusCode, imp.body).toBe(200);
    const s = await t.main.inject({ method: 'PUT', url: `/api/organizations/${owner.org.id}/change-settings`, headers: owner.headers, payload: { approvalRequired: 'none' } });
    expect(s.statusCode, s.body).toBe(200);
    token = (await createToken(t, owner, ['changes:read', 'changes:write'], 'pipeline')).secret;
    await t.pipeline.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.pipeline.server.address() as { port: number };
    env = { CHANGELEDGER_URL: `http://127.0.0.1:${port}`, CHANGELEDGER_TOKEN: token };
  });
  afterAll(async () => t?.close());

  it('prints each stored form of a report, a version by --version, and re-evaluates with a new horizon', async () => {
    const r = await pipe('/api/changes', { title: 'Deploy web', components: [{ query: 'web' }], startNow: true, evidenceMinutes: 15 });
    expect(r.statusCode, r.body).toBe(201);
    const c = r.json().change as Json;
    expect((await cli(['report', c.displayId]))).toMatchObject({ code: 2, err: expect.stringContaining(`no report yet: ${c.displayId} is active`) });
    expect((await pipe(`/api/changes/${c.id}/complete`)).statusCode).toBe(200);
    clock.advance(15 * 60_000);
    await drain();

    const text = await cli(['report', c.displayId]);
    expect(text.code, text.err).toBe(0);
    expect(text.out).toBe((await pipe(`GET /api/changes/${c.id}/report.txt`)).body);
    expect(text.out).toContain('Impact unknown: Nothing was measured');
    const html = await cli(['report', c.id, '--format', 'html']);
    expect(html.out).toMatch(/^<!doctype html>/);
    expect(html.out).toContain('<h2>Not counted by the verdict</h2>');
    const csv = await cli(['report', c.id, '--format', 'csv']);
    expect(csv.out.split('\r\n')[0]).toBe('section,source,subject,subject_label,role,signal,unit,window,hour_before,week_earlier,alertname,state,at,observed,expected,detail');
    const json = JSON.parse((await cli(['report', c.id, '--format', 'json'])).out) as Json;
    expect(json).toMatchObject({ version: 1, report: { impact: 'unknown', rule: 'nothing_measured' }, evidence: { schema: 1, window: { evidenceMinutes: 15 } } });

    // The horizon passed long ago: a new horizon of 30 minutes after finish has passed too, so it collects now.
    clock.advance(30 * 60_000);
    const ev = await cli(['evaluate', c.displayId, '--evidence-minutes', '30']);
    expect(ev.code, ev.err).toBe(0);
    expect(ev.out).toMatch(new RegExp(`^re-evaluating ${c.displayId} \\(evaluating\\): the next report version is due `));
    await drain();
    const v2 = JSON.parse((await cli(['report', c.id, '--format', 'json'])).out) as Json;
    expect(v2).toMatchObject({ version: 2, evidence: { window: { evidenceMinutes: 30 } } });
    const v1 = JSON.parse((await cli(['report', c.id, '--format', 'json', '--version', '1'])).out) as Json;
    expect(v1).toMatchObject({ version: 1, evidence: { window: { evidenceMinutes: 15 } } });
    expect(await cli(['report', c.id, '--version', '9'])).toMatchObject({ code: 2, err: expect.stringContaining(`no report version 9 of ${c.displayId}`) });
  });

  it('refuses a horizon outside 15–1440 minutes and an unknown format before asking the server', async () => {
    expect(await cli(['evaluate', 'chg_none', '--evidence-minutes', '5'])).toMatchObject({ code: 2, err: 'changeledger: --evidence-minutes must be from 15 to 1440\n' });
    expect(await cli(['evaluate', 'chg_none', '--evidence-minutes', 'soon'])).toMatchObject({ code: 2, err: 'changeledger: --evidence-minutes must be a whole number\n' });
    await expect(cli(['report', 'chg_none', '--format', 'pdf'])).rejects.toThrow(/Allowed choices are text, html, csv, json/);
  });
});
