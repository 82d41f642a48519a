import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../support/engines.js';
import { countRows, signedInOwner, testApp, type SignedIn, type TestApp } from '../support/test-app.js';

/**
 * A refused field is named as the form labels it, by the one formatter, whether the schema or a
 * hand-written check refused it; `field` keeps the dotted path for programs. Nothing is written.
 */
describeEachEngine('a refused field is named in words a person reads, with the field for programs', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Words');
  });
  afterAll(async () => t.close());

  const change = { title: 'Deploy checkout-api', components: [{ query: 'checkout-api' }], startNow: true };
  const settings = () => `/api/organizations/${owner.org.id}/change-settings`;

  it('names each field by its label: the five sentences people met as validator wording', async () => {
    const before = await countRows(engine.db());
    const cases: Array<[string, string, string, Record<string, string>, unknown, { error: string; field: string }]> = [
      ['POST', '/api/session', 'an empty e-mail at sign-in', {}, { email: '', password: 'x' }, { error: 'E-mail is required', field: 'email' }],
      ['POST', '/api/changes', 'an empty change title', owner.headers, { ...change, title: '' }, { error: 'Title is required', field: 'title' }],
      ['POST', '/api/changes', 'a blank change title (the hand-written check)', owner.headers, { ...change, title: '   ' }, { error: 'Title is required', field: 'title' }],
      ['PUT', settings(), 'a quorum of 0', owner.headers, { quorum: 0 }, { error: 'Quorum must be at least 1', field: 'quorum' }],
      ['POST', '/api/changes', 'a report recipient that is no address', owner.headers, { ...change, recipients: ['bob@'] }, { error: 'Recipient 1 (bob@) is not an e-mail address', field: 'recipients.0' }],
      ['PUT', settings(), 'a completion recipient that is no address', owner.headers, { completionRecipients: ['ops@example.com', 'ops'] }, { error: 'Completion recipient 2 (ops) is not an e-mail address', field: 'completionRecipients.1' }],
    ];
    for (const [method, url, what, headers, payload, expected] of cases) {
      const res = await t.main.inject({ method: method as 'POST', url, headers, payload: payload as Record<string, unknown> });
      expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
      expect(res.json(), what).toEqual(expected);
    }
    expect(await countRows(engine.db())).toEqual(before);
  });

  it('names the broken document of a Backstage import as a person counts it, with the YAML reason', async () => {
    const before = await countRows(engine.db());
    const text = 'apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: checkout\n---\nkind: [unclosed\n';
    const res = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=backstage', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: text });
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json() as { error: string; field: string };
    expect(body.field).toBe('documents.1');
    expect(body.error).toMatch(/^Document 2 is not valid YAML \(line \d+\): \S/);
    expect(await countRows(engine.db())).toEqual(before);
  });

  it('words the other schema limits the same way: a list item by its number and value, a length, a list size', async () => {
    const cases: Array<[string, string, unknown, { error: string; field: string }]> = [
      ['POST', '/api/tokens', { name: 'ci', scopes: [] }, { error: 'Scopes must have at least 1 entry', field: 'scopes' }],
      ['POST', '/api/tokens', { name: 'ci', scopes: ['changes:read', 'audit:write'] }, { error: expect.stringMatching(/^Scope 2 \(audit:write\) must be one of: /) as unknown as string, field: 'scopes.1' }],
      ['POST', '/api/changes', { ...change, title: 'x'.repeat(201) }, { error: 'Title must be at most 200 characters', field: 'title' }],
      ['POST', '/api/changes', { ...change, startNow: undefined, maxDurationMinutes: 4 }, { error: 'Duration (minutes) must be at least 5', field: 'maxDurationMinutes' }],
      ['POST', '/api/changes', { ...change, components: [{ key: '' }] }, { error: 'Component 1 › Key is required', field: 'components.0.key' }],
      // Hand-written checks go through the same formatter.
      ['POST', '/api/changes', { ...change, components: [{}] }, { error: 'Component 1 needs a key or a query', field: 'components.0' }],
      ['POST', '/api/changes', { ...change, startNow: undefined, windowStart: '2026-12-01T08:00:00Z', windowEnd: '2026-12-01T08:01:00Z' }, { error: 'End (UTC) must be at least 5 minutes after the start', field: 'windowEnd' }],
      ['POST', '/api/tokens', { name: 'x'.repeat(101), scopes: ['changes:read'] }, { error: expect.stringMatching(/^Name must /) as unknown as string, field: 'name' }],
    ];
    for (const [method, url, payload, expected] of cases) {
      const res = await t.main.inject({ method: method as 'POST', url, headers: owner.headers, payload: payload as Record<string, unknown> });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual(expected);
    }
  });
});
