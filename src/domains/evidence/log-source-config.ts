import { invalid } from '../../platform/errors.js';
import type { OutboundClient } from '../../platform/net/outbound.js';
import { createElasticsearchClient } from './elasticsearch-client.js';
import { createLokiClient } from './loki-client.js';

/**
 * What a log source needs besides its URL and credentials, per kind, checked once when it is saved
 * (the evidence source routes call checkLogSourceConfig) so that collection never meets a bad
 * one. Field problems are thrown as `config.<field>` 400s, worded for a person.
 */

export type LogSourceKind = 'loki' | 'elasticsearch' | 'otlp';

export type LokiConfig = {
  /** The stream label whose value is the service's name. Loki's OTLP intake names it service_name. */
  serviceLabel: string;
  /** More stream matchers every query carries, e.g. `env="prod", cluster="eu-1"`; null: none. */
  selector: string | null;
  /** The LogQL pipeline that keeps only error lines. */
  errorFilter: string;
};

export type ElasticsearchConfig = {
  /** Which indices hold the logs: a name, a pattern, or a comma list of them. */
  index: string;
  timeField: string;
  serviceField: string;
  levelField: string;
  messageField: string;
  /** Values of levelField that count as an error (matched as keywords, lower case as ECS writes them). */
  errorLevels: string[];
};

export type OtlpConfig = Record<string, never>;

export type LogSourceConfig = LokiConfig | ElasticsearchConfig | OtlpConfig;

/** Credentials, opened from their seal by the caller. */
export type LogAuth = { kind: 'none' } | { kind: 'bearer'; token: string } | { kind: 'basic'; user: string; password: string };

/** One log source ready to be asked: what collectLogs and testLogSource take. */
export type LogSource =
  | { id: string; name: string; kind: 'otlp' }
  | { id: string; name: string; kind: 'loki'; url: string; auth: LogAuth; allowPrivate: boolean; config: LokiConfig }
  | { id: string; name: string; kind: 'elasticsearch'; url: string; auth: LogAuth; allowPrivate: boolean; config: ElasticsearchConfig };

/** Loki's own OTLP intake turns the resource attribute service.name into this stream label. */
export const LOKI_DEFAULT_SERVICE_LABEL = 'service_name';
/**
 * Loki 3 detects a line's level and keeps it as the structured metadata `detected_level`
 * (https://grafana.com/docs/loki/latest/reference/loki-http-api/ and "discover_log_levels").
 */
export const LOKI_DEFAULT_ERROR_FILTER = '| detected_level=~"error|fatal|critical"';

/** The Elastic Common Schema's names (https://www.elastic.co/guide/en/ecs/current/ecs-field-reference.html). */
export const ELASTICSEARCH_DEFAULTS: ElasticsearchConfig = {
  index: 'logs-*',
  timeField: '@timestamp',
  serviceField: 'service.name',
  levelField: 'log.level',
  messageField: 'message',
  errorLevels: ['error', 'fatal', 'critical'],
};

const MAX_TEXT = 500;
const LABEL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** One LogQL stream matcher: name, operator, a double-quoted or back-quoted value. */
const MATCHER = String.raw`\s*[A-Za-z_][A-Za-z0-9_]*\s*(?:=~|!~|!=|=)\s*(?:"(?:[^"\\]|\\.)*"|` + '`[^`]*`' + String.raw`)\s*`;
const SELECTOR = new RegExp(`^${MATCHER}(?:,${MATCHER})*$`);
/** An index name or pattern as Elasticsearch allows them (lower case, no \ / ? " < > | space #), or a comma list; `-` excludes. */
const INDEX = /^-?[a-z0-9*][a-z0-9*._:+-]*(?:,-?[a-z0-9*][a-z0-9*._:+-]*)*$/;
const FIELD = /^[A-Za-z_@][A-Za-z0-9_@.-]*$/;

function asObject(raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw invalid('config', 'must be an object');
  return raw as Record<string, unknown>;
}

function text(o: Record<string, unknown>, key: string, fallback: string, shape: RegExp | null, what: string): string {
  const v = o[key];
  if (v === undefined || v === null || v === '') return fallback;
  if (typeof v !== 'string') throw invalid(`config.${key}`, 'must be text', v);
  const t = v.trim();
  if (t.length > MAX_TEXT) throw invalid(`config.${key}`, `must be at most ${MAX_TEXT} characters`);
  if (/[\r\n]/.test(t)) throw invalid(`config.${key}`, 'must be on one line');
  if (shape && !shape.test(t)) throw invalid(`config.${key}`, what, t);
  return t;
}

function refuseUnknown(o: Record<string, unknown>, known: string[]): void {
  for (const k of Object.keys(o)) if (!known.includes(k)) throw invalid(`config.${k}`, `is not a setting of this kind of source (it takes ${known.length ? known.join(', ') : 'none'})`);
}

function checkLoki(o: Record<string, unknown>): LokiConfig {
  refuseUnknown(o, ['serviceLabel', 'selector', 'errorFilter']);
  const serviceLabel = text(o, 'serviceLabel', LOKI_DEFAULT_SERVICE_LABEL, LABEL_NAME, 'must be a Loki label name (letters, digits and _, not starting with a digit)');
  const sel = text(o, 'selector', '', null, '');
  let selector: string | null = null;
  if (sel) {
    const inner = sel.replace(/^\{\s*/, '').replace(/\s*\}$/, '');
    if (!SELECTOR.test(inner)) throw invalid('config.selector', 'must be stream matchers such as env="prod", cluster=~"eu-.*"', sel);
    selector = inner;
  }
  const errorFilter = text(o, 'errorFilter', LOKI_DEFAULT_ERROR_FILTER, null, '');
  if (!errorFilter.startsWith('|')) throw invalid('config.errorFilter', 'must be a LogQL pipeline starting with | such as | detected_level="error" or |= "ERROR"', errorFilter);
  // Outside its quoted values a pipeline has no braces or brackets: those would open a selector or a range.
  if (/[{}[\]]/.test(errorFilter.replace(/"(?:[^"\\]|\\.)*"|`[^`]*`/g, ''))) {
    throw invalid('config.errorFilter', 'must hold only pipeline stages, not a stream selector or a range', errorFilter);
  }
  return { serviceLabel, selector, errorFilter };
}

function checkElasticsearch(o: Record<string, unknown>): ElasticsearchConfig {
  const d = ELASTICSEARCH_DEFAULTS;
  refuseUnknown(o, ['index', 'timeField', 'serviceField', 'levelField', 'messageField', 'errorLevels']);
  const fieldWords = 'must be a field name such as service.name';
  const index = text(o, 'index', d.index, INDEX, 'must be an index name or pattern in lower case, such as logs-* or logs-app-*,logs-web-*');
  let errorLevels = d.errorLevels;
  if (o.errorLevels !== undefined && o.errorLevels !== null) {
    const v = o.errorLevels;
    if (!Array.isArray(v) || v.length === 0 || v.length > 20) throw invalid('config.errorLevels', 'must be a list of 1 to 20 level names', v);
    errorLevels = v.map((x, i) => {
      if (typeof x !== 'string' || !x.trim() || x.length > 50) throw invalid(`config.errorLevels.${i}`, 'must be a level name such as error', x);
      return x.trim();
    });
  }
  return {
    index,
    timeField: text(o, 'timeField', d.timeField, FIELD, fieldWords),
    serviceField: text(o, 'serviceField', d.serviceField, FIELD, fieldWords),
    levelField: text(o, 'levelField', d.levelField, FIELD, fieldWords),
    messageField: text(o, 'messageField', d.messageField, FIELD, fieldWords),
    errorLevels,
  };
}

/** A stored log source, its credentials opened (evidence-sources-store's ReadySource has this shape). */
export type StoredLogSource = { id: string; name: string; kind: string; url: string | null; auth: LogAuth; allowPrivate: boolean; config: Record<string, unknown> };

/**
 * A stored source as collection and the Test button ask it. Its config is checked again, so a
 * source saved before a field had a default gets that default rather than an undefined.
 */
export function asLogSource(s: StoredLogSource): LogSource {
  if (s.kind === 'otlp') return { id: s.id, name: s.name, kind: 'otlp' };
  const base = { id: s.id, name: s.name, url: s.url ?? '', auth: s.auth, allowPrivate: s.allowPrivate };
  if (s.kind === 'loki') return { ...base, kind: 'loki', config: checkLogSourceConfig('loki', s.config) as LokiConfig };
  return { ...base, kind: 'elasticsearch', config: checkLogSourceConfig('elasticsearch', s.config) as ElasticsearchConfig };
}

/**
 * The config of a log source of this kind, with the defaults filled in: what is stored in
 * evidence_sources.config. Throws a `config.<field>` 400 naming what is wrong.
 */
export function checkLogSourceConfig(kind: LogSourceKind, raw: unknown): LogSourceConfig {
  const o = asObject(raw);
  if (kind === 'loki') return checkLoki(o);
  if (kind === 'elasticsearch') return checkElasticsearch(o);
  refuseUnknown(o, []);
  return {};
}

export type LogSourceTest = { ok: boolean; message: string; version?: string };

/**
 * The Test button: asks the source what it is and whether what the config names is there.
 * Never throws: a failure is `{ok: false, message}` in words.
 */
export async function testLogSource(deps: { outbound: OutboundClient }, source: LogSource): Promise<LogSourceTest> {
  if (source.kind === 'otlp') {
    return { ok: true, message: 'Our own OTLP/HTTP intake: send logs to POST /v1/logs on the pipeline listener with a token that has logs:write' };
  }
  if (source.kind === 'loki') return createLokiClient(deps.outbound).test(source);
  return createElasticsearchClient(deps.outbound).test(source);
}
