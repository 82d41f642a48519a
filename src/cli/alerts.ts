import { Option, type Command } from 'commander';
import type { AlertRecord } from '../domains/alerts/index.js';
import { parseDuration, parseTimeBound } from '../platform/clock.js';
import { ClientFailure, connect, DEFAULT_SERVER, type ServerOpts } from './api-client.js';
import { EXIT, table, type Io } from './common.js';

/**
 * `changeledger alerts list`: the alerts the running server received, last seen first, as a client
 * of its pipeline listener (an API token with alerts:read), like `changeledger changes`.
 */

type ListOpts = ServerOpts & { since?: string; held?: boolean; change?: string; state?: string; subject?: string; limit?: string; json?: boolean };
const MAX_LIMIT = 500;
const TOKEN_HINT_ALERTS = 'create one with `changeledger tokens create --user you@example.com --name alerts --scopes alerts:read` or in the web UI under API tokens';

/** One alert as a row a person reads: subjects by name, the holding change by its CHG- id and title. Pure. */
export function alertRow(a: AlertRecord): string[] {
  const held = a.heldBy ? `held · ${a.heldBy.displayId} "${a.heldBy.title}"` : '-';
  return [a.lastSeen.replace(/\.\d{3}Z$/, 'Z'), a.state, a.subjectLabel, held, a.fingerprint];
}

export function alertTable(alerts: AlertRecord[]): string {
  return table([['LAST SEEN', 'STATE', 'SUBJECT', 'HELD', 'FINGERPRINT'], ...alerts.map(alertRow)]);
}

/** The query of one `alerts list`, checked before anything is asked; a bad option exits 2 naming it. */
export function listQuery(o: ListOpts): Record<string, string | undefined> {
  if (o.since !== undefined && parseDuration(o.since) === null && parseTimeBound(o.since, new Date()) === null) {
    throw new ClientFailure(`--since must be a duration such as 1h or 7d, or an ISO-8601 time, not "${o.since}"`, EXIT.usage, 'since');
  }
  if (o.change !== undefined && !/^(CHG-[0-9A-Fa-f]{8}|chg_[0-9a-f]{32})$/.test(o.change)) {
    throw new ClientFailure(`--change must be a CHG- id (CHG-1A2B3C4D) or a change id (chg_…), not "${o.change}"`, EXIT.usage, 'change');
  }
  const limit = o.limit === undefined ? undefined : Number(o.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)) {
    throw new ClientFailure(`--limit must be a whole number from 1 to ${MAX_LIMIT}`, EXIT.usage, 'limit');
  }
  return { since: o.since, held: o.held ? 'true' : undefined, change: o.change, state: o.state, subject: o.subject, limit: limit === undefined ? undefined : String(limit) };
}

/** The server's field, as this command line spells it. */
const OPTION_OF: Record<string, string> = { since: '--since', change: '--change', state: '--state', subject: '--subject', limit: '--limit', held: '--held' };

export type AlertCommandOpts = { env?: NodeJS.ProcessEnv };

export function alertCommands(program: Command, io: Io, done: (code: number) => void, opts: AlertCommandOpts = {}): void {
  const name = program.name();
  const env = opts.env ?? process.env;
  const alerts = program.command('alerts').description('the alerts the running server received (Alertmanager, Prometheus) and what a change held');

  alerts.command('list')
    .description('list alerts, last seen first: state, subject by name, the change holding it; exit 0, 2 on a refused option, 3 when the server cannot be reached')
    .option('--since <when>', 'seen since a duration ago (15m, 1h, 7d) or an ISO-8601 time')
    .option('--held', 'only the alerts a running change holds now')
    .option('--change <id>', 'only what this change\'s hold held (CHG-… or chg_…)')
    .addOption(new Option('--state <state>', 'only firing or only resolved alerts').choices(['firing', 'resolved']))
    .option('--subject <name>', 'only the alerts about this subject (its name or catalogue key)')
    .option('--limit <n>', `at most this many (1-${MAX_LIMIT}, default 100)`)
    .option('--json', 'print the answer as JSON ({alerts: [...]})')
    .option('--server <url>', `the server's pipeline listener (default: $CHANGELEDGER_URL or ${DEFAULT_SERVER})`)
    // No default value here: commander would print it in --help, and the token must never be shown.
    .option('--token <token>', 'API token with alerts:read; prefer $CHANGELEDGER_TOKEN, since arguments show in ps')
    .action(async (o: ListOpts) => {
      try {
        const query = listQuery(o);
        if (!(o.token ?? env.CHANGELEDGER_TOKEN ?? '').trim()) throw new ClientFailure(`no API token: pass --token or set CHANGELEDGER_TOKEN; ${TOKEN_HINT_ALERTS}`, EXIT.usage, 'token');
        const api = connect(o, env);
        const body = (await api.get<{ alerts: AlertRecord[] }>('/api/alerts', query)).body;
        if (o.json) io.out(`${JSON.stringify(body, null, 2)}\n`);
        else if (body.alerts.length === 0) io.err('no alerts match\n');
        else io.out(alertTable(body.alerts));
        done(EXIT.ok);
      } catch (err) {
        if (!(err instanceof ClientFailure)) throw err;
        const option = err.field ? OPTION_OF[err.field] : undefined;
        io.err(`${name}: ${err.message}${option && !err.message.includes(option) ? ` (option ${option})` : ''}\n`);
        done(err.exitCode);
      }
    });
}
