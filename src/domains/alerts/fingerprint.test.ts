import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAlertmanager, type Alertmanager } from '../../../test/support/alertmanager.js';
import { missingPeers } from '../../../test/support/peer-process.js';
import { parseWebhook, type WebhookPayload } from './alert-payloads.js';
import { labelSetFingerprint } from './fingerprint.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** Captured from Debian's Alertmanager 0.25 on loopback: four alerts posted to its API, the webhook it then sent. */
const CAPTURED = join(ROOT, 'test', 'fixtures', 'alertmanager', 'webhook-v4-alertmanager-0.25.json');
/** The shared real payloads (prometheus-msteams' test data); they carry no fingerprint of their own. */
const SHARED = join(ROOT, '..', 'shared', 'fixtures', 'real', 'alertmanager');
const hasShared = existsSync(SHARED);
if (!hasShared) console.warn(`fingerprint: SKIPPING the shared real-payload tests: ${SHARED} is absent`);
const noAlertmanager = missingPeers('fingerprint', ['alertmanager']).length > 0;

const sharedWebhooks = (): Array<[string, WebhookPayload]> =>
  readdirSync(SHARED).filter((f) => f.startsWith('webhook-v4-')).map((f) => [f, JSON.parse(readFileSync(join(SHARED, f), 'utf8')) as WebhookPayload]);

/** The definition, written the slow way (BigInt, bytes sorted as Go sorts strings), to check the fast one against. */
function reference(labels: Record<string, string>): string {
  const enc = new TextEncoder();
  const names = Object.keys(labels).sort((a, b) => Buffer.compare(Buffer.from(enc.encode(a)), Buffer.from(enc.encode(b))));
  let h = 0xcbf29ce484222325n;
  for (const bytes of names.flatMap((n) => [enc.encode(n), enc.encode(labels[n]!)])) {
    for (const b of [...bytes, 0xff]) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString(16).padStart(16, '0');
}

describe('the label-set fingerprint', () => {
  it('is the FNV-1a 64 of the definition for any label set (ASCII or not)', () => {
    fc.assert(fc.property(fc.dictionary(fc.string({ unit: 'grapheme', maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 40 }), { maxKeys: 8 }), (labels) => labelSetFingerprint(labels) === reference(labels)), { numRuns: 500, seed: 7 });
  });

  it('is FNV-1a 64 with its offset basis for no labels, and prometheus/common\'s signature for its own example', () => {
    expect(labelSetFingerprint({})).toBe('cbf29ce484222325');
    // prometheus/common model's signature test: {name: "garland, briggs", fear: "love is not enough"} → 5799056148416392346.
    expect(BigInt(`0x${labelSetFingerprint({ name: 'garland, briggs', fear: 'love is not enough' })}`)).toBe(5799056148416392346n);
  });

  it('does not depend on the order labels were written in, and keeps a name and its value apart', () => {
    expect(labelSetFingerprint({ b: '2', a: '1' })).toBe(labelSetFingerprint({ a: '1', b: '2' }));
    expect(labelSetFingerprint({ a: 'bc' })).not.toBe(labelSetFingerprint({ ab: 'c' }));
    expect(labelSetFingerprint({ a: '' })).not.toBe(labelSetFingerprint({}));
    expect(labelSetFingerprint({ a: '1' })).toMatch(/^[0-9a-f]{16}$/);
  });

  it('equals the fingerprint of every alert of a webhook Alertmanager 0.25 sent (upper-case names, UTF-8 values, a name/value split)', () => {
    const payload = JSON.parse(readFileSync(CAPTURED, 'utf8')) as WebhookPayload;
    expect(payload.alerts).toHaveLength(4);
    for (const a of payload.alerts) expect(labelSetFingerprint(a.labels), JSON.stringify(a.labels)).toBe(a.fingerprint);
    // Intake uses the webhook's own fingerprint when it is there, and it agrees.
    expect(parseWebhook(payload).alerts.map((a) => a.fingerprint).sort()).toEqual(payload.alerts.map((a) => a.fingerprint!).sort());
  });

  it.skipIf(!hasShared)('parses the shared real webhooks and gives one alert per label set (two identical ones are one)', () => {
    const all = sharedWebhooks();
    expect(all.length).toBeGreaterThan(0);
    for (const [file, payload] of all) {
      const distinct = new Set(payload.alerts.map((a) => JSON.stringify(Object.entries(a.labels).sort())));
      expect(parseWebhook(payload).alerts, file).toHaveLength(distinct.size);
    }
  });
});

describe.skipIf(!hasShared || noAlertmanager)('the fingerprint against a real Alertmanager', () => {
  let am: Alertmanager;
  beforeAll(async () => {
    am = await startAlertmanager({ receivers: [] });
  }, 90_000);
  afterAll(async () => am?.stop());

  it('is the one Alertmanager gives the shared real payloads\' alerts', async () => {
    const labels = sharedWebhooks().flatMap(([, p]) => p.alerts.map((a) => a.labels));
    await am.postAlerts(labels.map((l) => ({ labels: l, startsAt: new Date().toISOString() })));
    const got = await am.waitForAlerts('the posted alerts', (list) => (list.length >= new Set(labels.map((l) => labelSetFingerprint(l))).size ? list : undefined));
    expect(got.length).toBeGreaterThan(0);
    for (const a of got) expect(labelSetFingerprint(a.labels), JSON.stringify(a.labels)).toBe(a.fingerprint);
  });
});
