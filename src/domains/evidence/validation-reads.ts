/**
 * A validation item's PromQL, read through the organisation's first usable Prometheus evidence
 * source as one number at an instant. Anything else is "not observed" with the reason: no source,
 * an error, no series, or several series (the item should aggregate them).
 */
import type { Sealer } from '../../platform/crypto/sealed.js';
import type { Queryable } from '../../platform/db/database.js';
import type { OutboundClient } from '../../platform/net/outbound.js';
import { asPrometheus, listEvidenceSources } from './evidence-sources-store.js';
import { createPrometheusClient } from './prometheus-client.js';

type Read = { ok: true; value: number } | { ok: false; why: string };

export function promqlReader(deps: { db: Queryable; sealer: Sealer; outbound: OutboundClient }) {
  const client = createPrometheusClient(deps.outbound);
  return async (orgId: string, query: string, at: Date): Promise<Read> => {
    const sources = (await listEvidenceSources(deps.db, orgId, { enabledOnly: true, sealer: deps.sealer })).filter((s) => s.kind === 'prometheus' && !s.authProblem);
    const source = sources[0];
    if (!source) return { ok: false, why: 'no Prometheus evidence source is configured' };
    const p = asPrometheus(source);
    const answer = await client.query({ url: p.url, auth: p.auth, allowPrivate: p.allowPrivate }, query, at);
    if (!answer.ok) return { ok: false, why: `${source.name} did not answer: ${answer.reason}` };
    const samples = answer.value.filter((s) => s.value !== null);
    if (samples.length === 0) return { ok: false, why: `${source.name} returned no series for the query` };
    if (samples.length > 1) return { ok: false, why: `${source.name} returned ${samples.length} series: a check reads one number (aggregate them, e.g. with sum or max)` };
    return { ok: true, value: samples[0]!.value! };
  };
}
