import type { OutboundClient } from '../../platform/net/outbound.js';
import type { EvidenceWindow, MetricsPart, ServiceRef } from './evidence-types.js';
import type { PrometheusSource } from './evidence-sources-store.js';
import type { RedTemplates } from './red-templates.js';

/** First version: the signature the collector builds on; the queries come next. */
export async function collectMetrics(
  _deps: { outbound: OutboundClient }, source: PrometheusSource, _services: ServiceRef[], _window: EvidenceWindow, _templates: RedTemplates,
): Promise<MetricsPart> {
  return Promise.resolve({ source: { id: source.id, kind: 'prometheus', name: source.name }, status: 'not_measured', reason: 'metrics collection is not built yet' });
}
