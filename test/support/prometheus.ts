import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PEER_BINARIES, peerJson, pollUntil, startPeer, type PeerProcess } from './peer-process.js';

/** Debian's Prometheus (package prometheus, 2.42 on bookworm). */
export const prometheusBin = PEER_BINARIES.prometheus;
export const hasPrometheus = existsSync(prometheusBin);

/**
 * Prometheus re-sends a firing alert every resend delay and stamps it valid (endsAt) for four
 * times that. 10 s keeps an alert firing through a 40 s stall of a loaded machine, where Prometheus'
 * default 1 m would make every "Alertmanager notifies at expiry" wait a minute.
 */
export const TEST_RESEND_DELAY = '10s';

/** Where Prometheus sends its alerts: an Alertmanager, or changeledger's pipeline listener (API v2). */
export type AlertTarget = {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Sent as `authorization` (type Bearer): a changeledger token with alerts:write. */
  bearer?: string;
};

export type AlertRule = {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
};

export type PrometheusSettings = {
  /** Scrape targets as host:port (the flip exporter's `target`). */
  scrape: string[];
  rules: AlertRule[];
  alertmanagers: AlertTarget[];
  /** The rule group's name (changeledger may map it to a monitoring source). */
  group?: string;
  /** More scrape jobs; `honorLabels` keeps the target's own `job` label (an exporter speaking for many services). */
  jobs?: Array<{ name: string; targets: string[]; honorLabels?: boolean }>;
};

/** Storage options: a data dir filled before start (promtool backfill), and how long to keep it. */
export type PrometheusStorage = { prepareData?: (dataDir: string) => void; retention?: string };

/** The rule of the tests: the flip exporter's gauge at 0 fires for that service, at 1 resolves. */
export function downRule(metric = 'up_check'): AlertRule {
  // last_over_time: a scrape that times out on a busy machine writes a stale marker, and a bare
  // `up_check == 0` would then resolve and re-fire. The range function skips stale markers, so only
  // a real flip moves the alert. `min by (service)` keeps the labels to the one the test set.
  return { alert: 'ServiceDown', expr: `min by (service) (last_over_time(${metric}[1m])) == 0`, for: '0s', labels: { severity: 'page' }, annotations: { summary: 'the check of {{ $labels.service }} fails' } };
}

function prometheusConfig(s: PrometheusSettings, rulesFile: string): Record<string, unknown> {
  return {
    global: { scrape_interval: '1s', evaluation_interval: '1s' },
    rule_files: [rulesFile],
    scrape_configs: [
      { job_name: 'flip', static_configs: [{ targets: s.scrape }] },
      ...(s.jobs ?? []).map((j) => ({ job_name: j.name, honor_labels: j.honorLabels ?? false, static_configs: [{ targets: j.targets }] })),
    ],
    alerting: {
      alertmanagers: s.alertmanagers.map((t) => {
        const u = new URL(t.url);
        return {
          api_version: 'v2',
          scheme: u.protocol.replace(':', ''),
          path_prefix: u.pathname === '' ? '/' : u.pathname,
          timeout: '10s',
          static_configs: [{ targets: [u.host] }],
          ...(t.bearer ? { authorization: { type: 'Bearer', credentials: t.bearer } } : {}),
        };
      }),
    },
  };
}

export type PrometheusAlert = { labels: Record<string, string>; annotations: Record<string, string>; state: 'pending' | 'firing' | 'inactive'; activeAt?: string; value: string };

export type Prometheus = PeerProcess & {
  /** Rewrites prometheus.yml and the rules and reloads them; a file Prometheus refuses throws with its reason. */
  configure(s: PrometheusSettings): Promise<void>;
  /** GET /api/v1/alerts: the alerts its rules hold now (pending or firing). */
  alerts(): Promise<PrometheusAlert[]>;
  /** GET /api/v1/alertmanagers: the active ones, by URL Prometheus posts to. */
  alertmanagers(): Promise<{ activeAlertmanagers: Array<{ url: string }>; droppedAlertmanagers: Array<{ url: string }> }>;
  /** Polls GET /api/v1/alerts until `pick` answers something. */
  waitForAlerts<T>(what: string, pick: (alerts: PrometheusAlert[]) => T | undefined): Promise<T>;
};

/**
 * Starts Prometheus on a free loopback port with its own TSDB, 1 s scrapes and evaluations, and the
 * given targets, rules and alertmanagers; answers once /-/ready says 200. stop() ends it and
 * removes its dir.
 */
export async function startPrometheus(s: PrometheusSettings, storage: PrometheusStorage = {}): Promise<Prometheus> {
  const configFile = (dir: string) => join(dir, 'prometheus.yml');
  const rulesFile = (dir: string) => join(dir, 'rules.yml');
  const write = (dir: string, next: PrometheusSettings) => {
    writeFileSync(rulesFile(dir), JSON.stringify({ groups: [{ name: next.group ?? 'changeledger-test', interval: '1s', rules: next.rules }] }, null, 2));
    writeFileSync(configFile(dir), JSON.stringify(prometheusConfig(next, rulesFile(dir)), null, 2));
  };
  const peer = await startPeer({
    name: 'prometheus',
    bin: prometheusBin,
    prepare: (dir) => {
      write(dir, s);
      storage.prepareData?.(join(dir, 'data'));
    },
    args: (port, dir) => [
      `--config.file=${configFile(dir)}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      ...(storage.retention ? [`--storage.tsdb.retention.time=${storage.retention}`] : []),
      `--web.listen-address=127.0.0.1:${port}`,
      `--web.external-url=http://127.0.0.1:${port}`,
      '--web.enable-lifecycle',
      `--rules.alert.resend-delay=${TEST_RESEND_DELAY}`,
      '--log.level=info',
    ],
  });
  const alerts = async () => (await peerJson<{ data: { alerts: PrometheusAlert[] } }>(`${peer.url}/api/v1/alerts`)).data.alerts;
  return {
    ...peer,
    async configure(next) {
      write(peer.dir, next);
      const res = await fetch(`${peer.url}/-/reload`, { method: 'POST', signal: AbortSignal.timeout(30_000) });
      if (res.status !== 200) throw new Error(`prometheus refused its configuration: ${res.status} ${await res.text()}`);
    },
    alerts,
    async alertmanagers() {
      return (await peerJson<{ data: { activeAlertmanagers: Array<{ url: string }>; droppedAlertmanagers: Array<{ url: string }> } }>(`${peer.url}/api/v1/alertmanagers`)).data;
    },
    waitForAlerts: (what, pick) => pollUntil(what, async () => pick(await alerts()), { details: peer.logs }),
  };
}
