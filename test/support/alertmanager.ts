import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PEER_BINARIES, peerJson, pollUntil, startPeer, type PeerProcess } from './peer-process.js';

/** Debian's Alertmanager (package prometheus-alertmanager, 0.25 on bookworm). */
export const alertmanagerBin = PEER_BINARIES.alertmanager;
export const hasAlertmanager = existsSync(alertmanagerBin);

/**
 * Timings for tests. Alertmanager flushes a group every group_interval and sends only what changed
 * (or what repeat_interval makes due), so short waits only make it look sooner; no assertion reads
 * a clock. repeat_interval is long so Alertmanager's own repeat never adds a notification a test
 * did not ask for; the repeat test sets a short one on purpose.
 */
export const TEST_GROUP_WAIT = '1s';
export const TEST_GROUP_INTERVAL = '1s';
export const TEST_REPEAT_INTERVAL = '4h';

export type WebhookReceiver = {
  name: string;
  /** Where Alertmanager posts webhook v4 (changeledger's /api/alerts/alertmanager, or a loopback receiver). */
  url?: string;
  /** Sent as `http_config.authorization` (type Bearer): a changeledger token with alerts:write. */
  bearer?: string;
};

export type AlertmanagerRoute = {
  receiver: string;
  matchers?: string[];
  /** Let the alert go on to the next sibling route too (one alert to changeledger and to a tap). */
  continue?: boolean;
  groupBy?: string[];
};

export type AlertmanagerSettings = {
  receivers: WebhookReceiver[];
  /** The top route's receiver; defaults to the first receiver. */
  receiver?: string;
  routes?: AlertmanagerRoute[];
  groupBy?: string[];
  groupWait?: string;
  groupInterval?: string;
  repeatInterval?: string;
};

/**
 * Alertmanager's configuration as a document. JSON is YAML, so it is written as JSON: no YAML
 * library, and the receivers' shape is exactly what README's snippet tells people to paste.
 */
export function alertmanagerConfig(s: AlertmanagerSettings): Record<string, unknown> {
  const receivers = s.receivers.length ? s.receivers : [{ name: 'blackhole' }];
  return {
    route: {
      receiver: s.receiver ?? receivers[0]!.name,
      group_by: s.groupBy ?? ['alertname', 'service'],
      group_wait: s.groupWait ?? TEST_GROUP_WAIT,
      group_interval: s.groupInterval ?? TEST_GROUP_INTERVAL,
      repeat_interval: s.repeatInterval ?? TEST_REPEAT_INTERVAL,
      routes: (s.routes ?? []).map((r) => ({
        receiver: r.receiver,
        ...(r.matchers ? { matchers: r.matchers } : {}),
        ...(r.continue ? { continue: true } : {}),
        ...(r.groupBy ? { group_by: r.groupBy } : {}),
      })),
    },
    receivers: receivers.map((r) => ({
      name: r.name,
      ...(r.url
        ? {
          webhook_configs: [{
            url: r.url,
            send_resolved: true,
            ...(r.bearer ? { http_config: { authorization: { type: 'Bearer', credentials: r.bearer } } } : {}),
          }],
        }
        : {}),
    })),
  };
}

/** An alert as Alertmanager's API v2 takes it (POST /api/v2/alerts). */
export type PostableAlert = { labels: Record<string, string>; annotations?: Record<string, string>; startsAt?: string; endsAt?: string; generatorURL?: string };

/** An alert as GET /api/v2/alerts answers it. */
export type GettableAlert = PostableAlert & {
  fingerprint: string;
  startsAt: string;
  endsAt: string;
  updatedAt: string;
  receivers: Array<{ name: string }>;
  status: { state: 'unprocessed' | 'active' | 'suppressed'; silencedBy: string[]; inhibitedBy: string[] };
};

export type Matcher = { name: string; value: string; isRegex: boolean; isEqual?: boolean };

/** A silence as GET /api/v2/silences answers it. */
export type GettableSilence = {
  id: string;
  matchers: Matcher[];
  startsAt: string;
  endsAt: string;
  updatedAt: string;
  createdBy: string;
  comment: string;
  status: { state: 'expired' | 'active' | 'pending' };
};

export type Alertmanager = PeerProcess & {
  /** Rewrites alertmanager.yml and reloads it; a configuration Alertmanager refuses throws with its reason. */
  configure(s: AlertmanagerSettings): Promise<void>;
  /** GET /api/v2/alerts; `filter` takes matchers such as `service="checkout"`. */
  alerts(q?: { silenced?: boolean; inhibited?: boolean; active?: boolean; filter?: string[] }): Promise<GettableAlert[]>;
  /** GET /api/v2/silences (every state: Alertmanager keeps expired ones for a while). */
  silences(): Promise<GettableSilence[]>;
  /** POST /api/v2/alerts: what Prometheus would send, for tests that need no rule. */
  postAlerts(alerts: PostableAlert[]): Promise<void>;
  /** POST /api/v2/silences; answers the silence id. */
  postSilence(s: { matchers: Matcher[]; startsAt: string; endsAt: string; createdBy: string; comment: string; id?: string }): Promise<string>;
  /** Polls GET /api/v2/alerts until `pick` answers something (a generous deadline; the peer's log on failure). */
  waitForAlerts<T>(what: string, pick: (alerts: GettableAlert[]) => T | undefined, q?: Parameters<Alertmanager['alerts']>[0]): Promise<T>;
  /** Polls GET /api/v2/silences until `pick` answers something. */
  waitForSilences<T>(what: string, pick: (silences: GettableSilence[]) => T | undefined): Promise<T>;
};

/**
 * Starts Alertmanager on a free loopback port with its own storage, no cluster (gossip would
 * listen on 0.0.0.0:9094), and the given routes; answers once /-/ready says 200. Stop it in
 * afterAll: stop() ends the process and removes its dir.
 */
export async function startAlertmanager(s: AlertmanagerSettings = { receivers: [] }): Promise<Alertmanager> {
  const configFile = (dir: string) => join(dir, 'alertmanager.yml');
  const peer = await startPeer({
    name: 'alertmanager',
    bin: alertmanagerBin,
    prepare: (dir) => writeFileSync(configFile(dir), JSON.stringify(alertmanagerConfig(s), null, 2)),
    args: (port, dir) => [
      `--config.file=${configFile(dir)}`,
      `--storage.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      `--web.external-url=http://127.0.0.1:${port}`,
      '--cluster.listen-address=',
      '--log.level=info',
    ],
  });
  const api = `${peer.url}/api/v2`;
  const alerts: Alertmanager['alerts'] = (q = {}) => {
    const p = new URLSearchParams();
    for (const k of ['silenced', 'inhibited', 'active'] as const) if (q[k] !== undefined) p.set(k, String(q[k]));
    for (const f of q.filter ?? []) p.append('filter', f);
    return peerJson<GettableAlert[]>(`${api}/alerts?${p.toString()}`);
  };
  const silences = () => peerJson<GettableSilence[]>(`${api}/silences`);
  return {
    ...peer,
    async configure(next) {
      writeFileSync(configFile(peer.dir), JSON.stringify(alertmanagerConfig(next), null, 2));
      // Alertmanager answers the reload only once it has applied (or refused) the file.
      const res = await fetch(`${peer.url}/-/reload`, { method: 'POST', signal: AbortSignal.timeout(30_000) });
      if (res.status !== 200) throw new Error(`alertmanager refused its configuration: ${res.status} ${await res.text()}`);
    },
    alerts,
    silences,
    async postAlerts(list) {
      await peerJson(`${api}/alerts`, { method: 'POST', body: list });
    },
    async postSilence(silence) {
      return (await peerJson<{ silenceID: string }>(`${api}/silences`, { method: 'POST', body: silence })).silenceID;
    },
    waitForAlerts: (what, pick, q) => pollUntil(what, async () => pick(await alerts(q)), { details: peer.logs }),
    waitForSilences: (what, pick) => pollUntil(what, async () => pick(await silences()), { details: peer.logs }),
  };
}

export { missingPeers, pollUntil } from './peer-process.js';
