import type { Command } from 'commander';
import { ClientFailure, type ApiClient, type ServerOpts } from './api-client.js';
import { table, type Io } from './common.js';

/**
 * `changeledger changes list`: the one change list (planned changes, flag writes, observed
 * changes) with the server's filters, and under the table what the connected sources cannot see,
 * so an empty list reads as "nothing in what we can see".
 */

export type ListOpts = ServerOpts & {
  source?: string; kind?: string; mode?: string; status?: string; service?: string; since?: string; until?: string; q?: string; limit?: string;
  unauthorized?: boolean; denied?: boolean; requests?: boolean; includeProposed?: boolean; json?: boolean;
};

type Entry = { displayId: string; origin: string; source: string; kind: string; status: string; title: string; at: string; service: string; denied: boolean; authorized: boolean | null; principal: { name: string } };
export type ListAnswer = { changes: Entry[]; neverCaptured: string[] };

/** The option a refusal names, so the message says what to fix on this command line. */
const OPTION_OF: Record<string, string> = { include_proposed: '--include-proposed' };

/** The query string of GET /api/changes for these options. Pure. */
export function listQuery(o: ListOpts): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of ['source', 'kind', 'mode', 'status', 'service', 'since', 'until', 'q', 'limit'] as const) {
    const v = o[k]?.trim();
    if (v) out[k] = v;
  }
  if (o.unauthorized) out.unauthorized = 'true';
  if (o.denied) out.denied = 'true';
  if (o.requests) out.requests = 'true';
  if (o.includeProposed) out.include_proposed = 'true';
  return out;
}

/** The table, then what cannot be seen. Pure. */
export function renderList(a: ListAnswer): string {
  const rows = a.changes.map((c) => [
    c.displayId, c.at, c.source, c.kind, c.denied ? 'denied' : c.authorized === false ? `${c.status} (unauthorized)` : c.status, c.service || '(unmapped)', c.principal.name, c.title,
  ]);
  const head = a.changes.length ? table([['ID', 'WHEN', 'SOURCE', 'KIND', 'STATUS', 'SERVICE', 'WHO', 'TITLE'], ...rows]) : 'No change matches.\n';
  const blind = a.neverCaptured.length ? `\nWhat we cannot see (so not listed):\n${a.neverCaptured.map((l) => `  - ${l}\n`).join('')}` : '';
  return head + blind;
}

export function listCommand(changes: Command, deps: {
  io: Io; withServerOptions: (c: Command) => Command; connectTo: (o: ServerOpts) => ApiClient;
  run: <A extends unknown[]>(fn: (...args: A) => Promise<number | void>) => (...args: A) => Promise<void>;
}): void {
  deps.withServerOptions(changes.command('list').description('the one change list: planned changes, flag writes and observed changes, newest first, and what the connected sources cannot see'))
    .option('--source <list>', 'comma-separated: changeledger, flags, github, gitlab, argocd, kubernetes, aws, azure, pagerduty, cloudevents, webhook')
    .option('--kind <list>', 'comma-separated kinds: deploy, config, infra, other, push, pr_merged, sync, release, tag, health, k8s_write, cloud_write, change, flag')
    .option('--mode <list>', 'comma-separated channels: ui, api, pipeline, cli, gitops, automation, an observed event kind, or platform')
    .option('--status <list>', 'comma-separated statuses: a planned change’s, or recorded')
    .option('--service <name>', 'a service by name or key (svc:…)')
    .option('--since <when>', 'a duration back from now (24h, 7d) or an ISO-8601 time')
    .option('--until <when>', 'a duration back from now or an ISO-8601 time')
    .option('--unauthorized', 'only changes judged unauthorized')
    .option('--denied', 'only denied attempts (left out otherwise)')
    .option('--requests', 'only planned changes and flag change requests, those waiting on a person first')
    .option('--include-proposed', 'list flag change requests waiting for approval too')
    .option('--q <text>', 'a CHG- id, or part of a title or of a service')
    .option('--limit <n>', 'at most this many (1–200, default 200)')
    .option('--json', 'print the answer as JSON ({changes, neverCaptured})')
    .action(deps.run(async (o: ListOpts) => {
      const api = deps.connectTo(o);
      let answer: ListAnswer;
      try {
        answer = (await api.get<ListAnswer>('/api/changes', listQuery(o))).body;
      } catch (err) {
        if (!(err instanceof ClientFailure) || !err.field) throw err;
        const option = OPTION_OF[err.field] ?? `--${err.field}`;
        const message = err.message.endsWith(`(field: ${err.field})`) ? `${err.message.slice(0, -1)}, option ${option})` : `${err.message} (option ${option})`;
        throw new ClientFailure(message, err.exitCode, err.field);
      }
      deps.io.out(o.json ? `${JSON.stringify(answer, null, 2)}\n` : renderList(answer));
    }));
}
