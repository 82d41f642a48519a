/**
 * What to paste into Alertmanager and Prometheus so their alerts reach changeledger: the
 * `receivers:` + `route:` of alertmanager.yml (the webhook, payload version 4) and Prometheus's
 * `alerting.alertmanagers` (the API v2 shape, Prometheus sending to us directly). Both go to the
 * pipeline listener with an API token of scope alerts:write.
 */

/** Put where the token goes; a person replaces it with a token of scope alerts:write. */
export const TOKEN_PLACEHOLDER = 'REPLACE_WITH_AN_ALERTS_WRITE_TOKEN';
/** Shown while the pipeline listener does not listen (or its address is unknown). */
export const PIPELINE_PLACEHOLDER = 'http://changeledger.example:4320';
export const WEBHOOK_PATH = '/api/alerts/alertmanager';
export const API_V2_PATH = '/api/v2/alerts';
export const RECEIVER_NAME = 'changeledger';

export type ReceiversSnippet = {
  /** The pipeline listener's address the snippets use; null when it was not known and the placeholder is used. */
  pipelineUrl: string | null;
  webhookUrl: string;
  /** A whole alertmanager.yml for relay mode: changeledger receives everything and relays it. */
  alertmanagerYaml: string;
  /** For silence mode: put this first under your own route's `routes:` to copy every alert to changeledger and keep your routing. */
  alertmanagerChildRouteYaml: string;
  /** prometheus.yml's alerting section: Prometheus sends to changeledger's API v2 directly. */
  prometheusYaml: string;
};

/** A scalar YAML reads as the same string: JSON's double-quoted form is valid YAML. */
const q = (s: string) => JSON.stringify(s);

export function receiversSnippet(pipelineUrl: string | null): ReceiversSnippet {
  const base = (pipelineUrl ?? PIPELINE_PLACEHOLDER).replace(/\/+$/, '');
  const webhookUrl = `${base}${WEBHOOK_PATH}`;
  const u = new URL(base);
  const authorization = [
    '      authorization:',
    '        type: Bearer',
    `        credentials: ${q(TOKEN_PLACEHOLDER)}  # an API token with the alerts:write scope`,
  ];
  const alertmanagerYaml = [
    '# alertmanager.yml — changeledger receives every alert and relays the ones it does not hold.',
    'route:',
    `  receiver: ${q(RECEIVER_NAME)}`,
    "  group_by: ['alertname']",
    '  group_wait: 30s',
    '  group_interval: 5m',
    '  repeat_interval: 4h',
    'receivers:',
    `  - name: ${q(RECEIVER_NAME)}`,
    '    webhook_configs:',
    `      - url: ${q(webhookUrl)}`,
    '        send_resolved: true',
    '        max_alerts: 0  # 0: every alert of a group, none truncated',
    '        http_config:',
    ...authorization.map((l) => `    ${l}`),
    '',
  ].join('\n');
  const alertmanagerChildRouteYaml = [
    '# Put first under your route\'s routes: — every alert is copied to changeledger, your own routing stays.',
    `- receiver: ${q(RECEIVER_NAME)}`,
    '  continue: true',
    '',
  ].join('\n');
  const prefix = u.pathname.replace(/\/+$/, '');
  const prometheusYaml = [
    '# prometheus.yml — Prometheus sends its alerts to changeledger directly (POST /api/v2/alerts).',
    'alerting:',
    '  alertmanagers:',
    `    - scheme: ${u.protocol.replace(':', '')}`,
    ...(prefix ? [`      path_prefix: ${q(prefix)}`] : []),
    '      api_version: v2',
    '      static_configs:',
    `        - targets: [${q(u.host)}]`,
    ...authorization,
    '',
  ].join('\n');
  return { pipelineUrl, webhookUrl, alertmanagerYaml, alertmanagerChildRouteYaml, prometheusYaml };
}

/** The child route inside a whole alertmanager.yml, for checking it as Alertmanager would. */
export function withChildRoute(s: ReceiversSnippet, ownReceiver = 'team-pager'): string {
  const child = s.alertmanagerChildRouteYaml.split('\n').filter((l) => l && !l.startsWith('#')).map((l) => `    ${l}`);
  return s.alertmanagerYaml
    .replace(`  receiver: ${q(RECEIVER_NAME)}\n`, `  receiver: ${q(ownReceiver)}\n  routes:\n${child.join('\n')}\n`)
    .replace('receivers:\n', `receivers:\n  - name: ${q(ownReceiver)}\n`);
}
