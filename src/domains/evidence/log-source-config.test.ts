import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startElasticsearchReplay, type ElasticsearchReplay } from '../../../test/support/elasticsearch-replay.js';
import { startLokiReplay, type LokiReplay } from '../../../test/support/loki-replay.js';
import { AppError } from '../../platform/errors.js';
import { createOutboundClient } from '../../platform/net/outbound.js';
import { checkLogSourceConfig, ELASTICSEARCH_DEFAULTS, LOKI_DEFAULT_ERROR_FILTER, testLogSource, type ElasticsearchConfig, type LogSource, type LokiConfig } from './log-source-config.js';

const refusal = (fn: () => unknown): { status: number; field: string | undefined; message: string } => {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, field: err.field, message: err.message };
    throw err;
  }
  throw new Error('expected a refusal');
};

describe('checkLogSourceConfig', () => {
  it('fills in the defaults: Loki\'s service_name and Loki 3\'s detected_level, ECS for Elasticsearch, nothing for our OTLP intake', () => {
    expect(checkLogSourceConfig('loki', undefined)).toEqual({ serviceLabel: 'service_name', selector: null, errorFilter: LOKI_DEFAULT_ERROR_FILTER });
    expect(checkLogSourceConfig('elasticsearch', {})).toEqual(ELASTICSEARCH_DEFAULTS);
    expect(ELASTICSEARCH_DEFAULTS).toMatchObject({ index: 'logs-*', timeField: '@timestamp', serviceField: 'service.name', levelField: 'log.level', messageField: 'message' });
    expect(checkLogSourceConfig('otlp', {})).toEqual({});
  });

  it('keeps what it is given, trimmed; a selector in braces loses them', () => {
    expect(checkLogSourceConfig('loki', { serviceLabel: 'app', selector: ' {env="prod", cluster=~"eu-.*"} ', errorFilter: '|= "ERROR"' }))
      .toEqual({ serviceLabel: 'app', selector: 'env="prod", cluster=~"eu-.*"', errorFilter: '|= "ERROR"' });
    expect(checkLogSourceConfig('elasticsearch', { index: 'logs-app-*,logs-web-*', serviceField: 'kubernetes.labels.app', errorLevels: ['ERR', 'crit'] }))
      .toMatchObject({ index: 'logs-app-*,logs-web-*', serviceField: 'kubernetes.labels.app', errorLevels: ['ERR', 'crit'] });
  });

  it.each([
    ['loki', { serviceLabel: 'service-name' }, 'config.serviceLabel', /must be a Loki label name/],
    ['loki', { selector: 'env=prod' }, 'config.selector', /must be stream matchers such as env="prod"/],
    ['loki', { errorFilter: 'level="error"' }, 'config.errorFilter', /must be a LogQL pipeline starting with \|/],
    ['loki', { errorFilter: '| level="error" [5m]' }, 'config.errorFilter', /only pipeline stages/],
    ['loki', { errorFilter: '|= "x"\n| json' }, 'config.errorFilter', /must be on one line/],
    ['loki', { index: 'logs-*' }, 'config.index', /is not a setting of this kind of source/],
    ['elasticsearch', { index: 'Logs/*' }, 'config.index', /must be an index name or pattern in lower case/],
    ['elasticsearch', { timeField: 'time stamp' }, 'config.timeField', /must be a field name/],
    ['elasticsearch', { errorLevels: [] }, 'config.errorLevels', /must be a list of 1 to 20 level names/],
    ['elasticsearch', { errorLevels: ['error', 3] }, 'config.errorLevels.1', /must be a level name/],
    ['elasticsearch', { messageField: 42 }, 'config.messageField', /must be text/],
    ['otlp', { index: 'x' }, 'config.index', /it takes none/],
    ['loki', 'env="prod"', 'config', /must be an object/],
  ] as const)('refuses a %s config %j with a 400 on %s', (kind, raw, field, words) => {
    const r = refusal(() => checkLogSourceConfig(kind, raw));
    expect(r.status).toBe(400);
    expect(r.field).toBe(field);
    expect(r.message).toMatch(words);
  });
});

describe('testLogSource', () => {
  const outbound = createOutboundClient({ testOnlyAllowLoopback: true, timeoutMs: 2_000 });
  let loki: LokiReplay;
  let es: ElasticsearchReplay;
  let os: ElasticsearchReplay;
  const lokiSource = (url: string, config: Partial<LokiConfig> = {}): LogSource => ({ id: 's1', name: 'Loki', kind: 'loki', url, auth: { kind: 'none' }, allowPrivate: false, config: checkLogSourceConfig('loki', config) as LokiConfig });
  const esSource = (url: string, config: Partial<ElasticsearchConfig> = {}): LogSource => ({ id: 's2', name: 'ES', kind: 'elasticsearch', url, auth: { kind: 'bearer', token: 't0k' }, allowPrivate: false, config: checkLogSourceConfig('elasticsearch', config) as ElasticsearchConfig });

  beforeAll(async () => {
    loki = await startLokiReplay({ version: '3.1.0' });
    loki.push({ at: new Date().toISOString(), labels: { service_name: 'checkout', env: 'prod' }, line: 'hello' });
    es = await startElasticsearchReplay({ version: '8.14.1' });
    es.index('logs-app-default', { '@timestamp': new Date().toISOString(), message: 'x' }, { '@timestamp': new Date().toISOString(), message: 'y' });
    os = await startElasticsearchReplay({ distribution: 'opensearch', version: '2.15.0' });
  });
  afterAll(async () => {
    await loki.close();
    await es.close();
    await os.close();
  });

  it('Loki: answers its version and whether its streams carry the service label', async () => {
    expect(await testLogSource({ outbound }, lokiSource(loki.url))).toEqual({ ok: true, version: '3.1.0', message: 'Loki 3.1.0 answered; its streams carry the label service_name' });
    expect(await testLogSource({ outbound }, lokiSource(loki.url, { serviceLabel: 'app' }))).toEqual({
      ok: false, version: '3.1.0', message: 'Loki 3.1.0 answered, but no stream of the last hours carries the label app (it has env, service_name)',
    });
    expect(loki.requests.map((r) => r.path)).toEqual(expect.arrayContaining(['/loki/api/v1/status/buildinfo', '/loki/api/v1/labels']));
  });

  it('Elasticsearch and OpenSearch: the distribution, its version and what the index pattern holds', async () => {
    expect(await testLogSource({ outbound }, esSource(es.url))).toEqual({ ok: true, version: '8.14.1', message: 'Elasticsearch 8.14.1 answered; logs-* holds 2 records' });
    expect(await testLogSource({ outbound }, esSource(os.url, { index: 'app-logs' }))).toEqual({ ok: false, version: '2.15.0', message: 'OpenSearch 2.15.0 answered, but no record matches the index app-logs' });
    expect(es.requests.map((r) => [r.method, r.path, r.authorization])).toEqual([['GET', '/', 'Bearer t0k'], ['POST', '/logs-*/_count', 'Bearer t0k']]);
  });

  it('a source that does not answer, or answers an error, is not ok and says why', async () => {
    const gone = await startLokiReplay();
    await gone.close();
    expect(await testLogSource({ outbound }, lokiSource(gone.url))).toEqual({ ok: false, message: 'connection refused' });
    es.fail(401, 'security_exception', 'missing authentication credentials for REST request [/]');
    expect(await testLogSource({ outbound }, esSource(es.url))).toEqual({ ok: false, message: 'Elasticsearch answered 401: missing authentication credentials for REST request [/]' });
    es.fail(null);
    const refused = createOutboundClient({ timeoutMs: 2_000 });
    expect((await testLogSource({ outbound: refused }, lokiSource(loki.url))).message).toMatch(/^refused: 127\.0\.0\.1 is a loopback address/);
  });

  it('our OTLP intake needs no test: it says where to send', async () => {
    expect(await testLogSource({ outbound }, { id: 's3', name: 'OTLP', kind: 'otlp' })).toEqual({ ok: true, message: expect.stringMatching(/POST \/v1\/logs on the pipeline listener.*logs:write/) });
  });
});
