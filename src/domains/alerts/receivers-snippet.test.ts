import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { describeEachEngine } from '../../../test/support/engines.js';
import { signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { PIPELINE_PLACEHOLDER, receiversSnippet, TOKEN_PLACEHOLDER, withChildRoute } from './receivers-snippet.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const run = promisify(execFile);
const AMTOOL = '/usr/bin/amtool';
const PROMTOOL = '/usr/bin/promtool';

/** Runs a Debian checker on the text as a file; answers its exit and words. */
async function check(tool: string, args: string[], text: string): Promise<{ ok: boolean; said: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'receivers-'));
  const file = join(dir, 'config.yml');
  writeFileSync(file, text);
  try {
    const r = await run(tool, [...args, file]);
    return { ok: true, said: r.stdout + r.stderr };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    return { ok: false, said: `${e.stdout ?? ''}${e.stderr ?? ''}${e.message}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the receivers snippet', () => {
  const s = receiversSnippet('http://changeledger.acme.dev:4320');

  it('points Alertmanager’s webhook at the pipeline listener with send_resolved, max_alerts 0 and a token placeholder', () => {
    const am = parse(s.alertmanagerYaml) as Json;
    expect(am.route.receiver).toBe('changeledger');
    expect(am.receivers).toEqual([{
      name: 'changeledger',
      webhook_configs: [{
        url: 'http://changeledger.acme.dev:4320/api/alerts/alertmanager', send_resolved: true, max_alerts: 0,
        http_config: { authorization: { type: 'Bearer', credentials: TOKEN_PLACEHOLDER } },
      }],
    }]);
    const child = parse(s.alertmanagerChildRouteYaml) as Json;
    expect(child).toEqual([{ receiver: 'changeledger', continue: true }]);
  });

  it('points Prometheus at the pipeline listener’s /api/v2/alerts', () => {
    const p = parse(s.prometheusYaml) as Json;
    expect(p.alerting.alertmanagers).toEqual([{
      scheme: 'http', api_version: 'v2', static_configs: [{ targets: ['changeledger.acme.dev:4320'] }],
      authorization: { type: 'Bearer', credentials: TOKEN_PLACEHOLDER },
    }]);
    expect(parse(receiversSnippet('https://cl.acme.dev/pipeline').prometheusYaml).alerting.alertmanagers[0]).toMatchObject({ scheme: 'https', path_prefix: '/pipeline', static_configs: [{ targets: ['cl.acme.dev'] }] });
  });

  const hasAmtool = existsSync(AMTOOL);
  it.skipIf(!hasAmtool)(`is accepted by the real amtool check-config, whole and as a child route${hasAmtool ? '' : ' (SKIPPED: /usr/bin/amtool is not installed — apt-get install prometheus-alertmanager)'}`, async () => {
    const whole = await check(AMTOOL, ['check-config'], s.alertmanagerYaml);
    expect(whole.ok, whole.said).toBe(true);
    expect(whole.said).toMatch(/SUCCESS/);
    const child = await check(AMTOOL, ['check-config'], withChildRoute(s));
    expect(child.ok, child.said).toBe(true);
    // The check can fail: a snippet without its receiver is refused.
    const broken = await check(AMTOOL, ['check-config'], s.alertmanagerYaml.replace(/receivers:[\s\S]*$/, ''));
    expect(broken.ok).toBe(false);
  });

  const hasPromtool = existsSync(PROMTOOL);
  it.skipIf(!hasPromtool)(`is accepted by the real promtool check config${hasPromtool ? '' : ' (SKIPPED: /usr/bin/promtool is not installed — apt-get install prometheus)'}`, async () => {
    const r = await check(PROMTOOL, ['check', 'config', '--syntax-only'], s.prometheusYaml);
    expect(r.ok, r.said).toBe(true);
  });
});

describeEachEngine('GET /api/alert-settings/receivers', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Receivers');
  });
  afterAll(() => t.close());

  it('uses a placeholder while the pipeline listener does not listen, then its address', async () => {
    const before = await t.main.inject({ method: 'GET', url: '/api/alert-settings/receivers', headers: owner.headers });
    expect(before.statusCode).toBe(200);
    expect(before.json()).toMatchObject({ pipelineUrl: null, webhookUrl: `${PIPELINE_PLACEHOLDER}/api/alerts/alertmanager` });
    await t.pipeline.listen({ port: 0, host: '127.0.0.1' });
    const after = await t.main.inject({ method: 'GET', url: '/api/alert-settings/receivers', headers: owner.headers });
    const body = after.json() as Json;
    const port = (t.pipeline.server.address() as { port: number }).port;
    expect(body.pipelineUrl).toBe(`http://127.0.0.1:${port}`);
    expect((parse(body.alertmanagerYaml as string) as Json).receivers[0].webhook_configs[0].url).toBe(`http://127.0.0.1:${port}/api/alerts/alertmanager`);
    // The pipeline listener itself does not serve it: people only.
    const onPipeline = await t.pipeline.inject({ method: 'GET', url: '/api/alert-settings/receivers' });
    expect(onPipeline.statusCode).toBe(404);
  });
});
