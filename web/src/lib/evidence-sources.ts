import type { EvidenceSource, EvidenceSourceKind, EvidenceSourcePatch, SourceAuthKind, SourceTest } from '../api/types';
import type { TestWords } from '../components/alert-test-result';

// The Settings → Evidence source form as a draft, and what it sends. Config fields left blank are
// left out, so the server's documented defaults apply (and stay visible as placeholders).

export const sourceKindLabels: Record<EvidenceSourceKind, string> = {
  prometheus: 'Prometheus',
  loki: 'Grafana Loki',
  elasticsearch: 'Elasticsearch / OpenSearch',
  otlp: 'OTLP logs intake',
};

export const sourceKindSentences: Record<EvidenceSourceKind, string> = {
  prometheus: 'Request rate, error ratio and p95 latency of each service, from the RED queries below.',
  loki: 'Log volume and error fingerprints, read with LogQL query_range.',
  elasticsearch: 'Log volume and error fingerprints, read with _count and date histograms.',
  otlp: 'Logs your services send to changeledger itself: POST /v1/logs on the pipeline listener, with a token holding logs:write.',
};

export const authLabels: Record<SourceAuthKind, string> = { none: 'None', bearer: 'Bearer token', basic: 'Basic (user and password)' };

/** The kind's own settings: the field, its label, and the server's default shown as a placeholder. */
export const configFields: Record<EvidenceSourceKind, ReadonlyArray<{ key: string; label: string; placeholder: string }>> = {
  prometheus: [],
  otlp: [],
  loki: [
    { key: 'serviceLabel', label: 'Stream label naming the service', placeholder: 'service_name' },
    { key: 'selector', label: 'More stream matchers (optional)', placeholder: 'env="prod"' },
    { key: 'errorFilter', label: 'Error-line filter (LogQL)', placeholder: '| detected_level=~"error|fatal|critical"' },
  ],
  elasticsearch: [
    { key: 'index', label: 'Index or pattern', placeholder: 'logs-*' },
    { key: 'timeField', label: 'Time field', placeholder: '@timestamp' },
    { key: 'serviceField', label: 'Service field', placeholder: 'service.name' },
    { key: 'levelField', label: 'Level field', placeholder: 'log.level' },
    { key: 'messageField', label: 'Message field', placeholder: 'message' },
  ],
};

export type SourceDraft = {
  kind: EvidenceSourceKind;
  name: string;
  url: string;
  authKind: SourceAuthKind;
  token: string;
  username: string;
  password: string;
  config: Record<string, string>;
};

export const emptySourceDraft: SourceDraft = { kind: 'prometheus', name: '', url: '', authKind: 'none', token: '', username: '', password: '', config: {} };

export function draftOf(s: EvidenceSource): SourceDraft {
  const config: Record<string, string> = {};
  for (const f of configFields[s.kind]) {
    const v = s.config[f.key];
    if (typeof v === 'string') config[f.key] = v;
  }
  return { ...emptySourceDraft, kind: s.kind, name: s.name, url: s.url ?? '', authKind: s.authKind, config };
}

/** The URL and credentials mean nothing for our own intake. */
export const takesUrl = (kind: EvidenceSourceKind): boolean => kind !== 'otlp';

/**
 * What the form sends. On an edit, credentials are sent only when the kind of auth changed or a
 * secret was typed: the stored secret is write-only and is kept otherwise.
 */
export function sourceInput(d: SourceDraft, stored: EvidenceSource | null): EvidenceSourcePatch & { name: string } {
  const config: Record<string, string> = {};
  for (const f of configFields[d.kind]) {
    const v = (d.config[f.key] ?? '').trim();
    if (v !== '') config[f.key] = v;
  }
  const body: EvidenceSourcePatch & { name: string } = { name: d.name.trim(), config };
  if (!takesUrl(d.kind)) return body;
  body.url = d.url.trim();
  const typed = d.token !== '' || d.password !== '' || d.username !== '';
  if (stored !== null && stored.authKind === d.authKind && !typed) return body;
  if (d.authKind === 'bearer') body.auth = { kind: 'bearer', token: d.token };
  else if (d.authKind === 'basic') body.auth = { kind: 'basic', username: d.username, password: d.password };
  else body.auth = { kind: 'none' };
  return body;
}

/** The Test answer as a sentence, as the alert sources' Test buttons say theirs. */
export function sourceTestWords(t: SourceTest): TestWords {
  return { ok: t.ok, message: t.message };
}
