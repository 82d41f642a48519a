import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AdapterContext, IntakeRequest } from '../observed-types.js';
import { INTAKE_ADAPTERS } from './index.js';

// The curl examples of docs/observed.md ("PagerDuty, CloudEvents and the generic webhook") are what
// people paste: each must be recorded by the adapter its path names, with the secret it shows.

const DOCS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'docs', 'observed.md');
const doc = readFileSync(DOCS, 'utf8');
const start = doc.indexOf('\n## PagerDuty, CloudEvents and the generic webhook');
const section = doc.slice(start, doc.indexOf('\n## ', start + 5));
const ctx: AdapterContext = { sourceId: 'src_docs', config: {}, ciNamespaces: [], now: new Date('2026-12-01T12:00:00Z') };

type Curl = { url: string; req: IntakeRequest };
/** Each `curl` of the section's sh blocks, read as a shell would read its single-quoted arguments. */
function curls(): Curl[] {
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks.flatMap((b) => b.split(/\n(?=curl )/).filter((c) => c.startsWith('curl '))).map((cmd) => {
    const joined = cmd.replace(/#.*$/gm, '').replace(/\\\n/g, ' ').replace(/<connection id>/g, 'x');
    const url = /(https:\/\/\S+)/.exec(joined)![1]!;
    const headers: Record<string, string> = {};
    for (const m of joined.matchAll(/-H '([^:']+):\s*([^']*)'/g)) headers[m[1]!.toLowerCase()] = m[2]!;
    const data = /-d '([\s\S]*?)'/.exec(joined)![1]!;
    let body: unknown = null;
    try {
      body = JSON.parse(data);
    } catch {
      body = null;
    }
    return { url, req: { headers, rawBody: Buffer.from(data), body } };
  });
}

describe('the curl examples in docs/observed.md', () => {
  const all = curls();

  it('there is one for PagerDuty, two for CloudEvents (structured, binary) and two for the generic webhook', () => {
    expect(all.map((c) => new URL(c.url).pathname)).toEqual([
      '/v2/change/enqueue', '/v1/changes/cloudevents/x', '/v1/changes/cloudevents/x', '/v1/changes/webhook/x', '/v1/changes/webhook/x',
    ]);
  });

  it('each authenticates with the secret it shows and is recorded by the adapter of its path', async () => {
    const results = [];
    for (const c of all) {
      const kind = c.url.includes('/v2/change/enqueue') ? 'pagerduty' : /\/v1\/changes\/([a-z]+)\//.exec(c.url)![1]!;
      const adapter = INTAKE_ADAPTERS[kind as keyof typeof INTAKE_ADAPTERS];
      expect(await adapter.authenticate(c.req, kind === 'pagerduty' ? '<connection secret>' : '<secret>')).toBe(true);
      results.push(adapter.parse(c.req, ctx));
    }
    expect(results.map((p) => [p.events.length, p.rejected.map((r) => r.field)])).toEqual([[1, []], [1, []], [1, []], [1, []], [1, ['changes.1.title']]]);
    const [pd, structured, binary, hook] = results.map((p) => p.events[0]!);
    expect(pd).toMatchObject({ kind: 'change', serviceHint: 'checkout', location: { environment: 'production' } });
    expect(binary).toEqual(structured);
    expect(structured).toMatchObject({ kind: 'deploy', serviceHint: 'checkout', location: { environment: 'production' } });
    expect(hook).toMatchObject({ kind: 'change', action: 'config', diff: '- pool: 20\n+ pool: 40', principal: { kind: 'person', name: 'Ana' } });
  });
});
