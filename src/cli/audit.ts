import type { Command } from 'commander';
import { systemClock, timeBound } from '../platform/clock.js';
import { EXIT, runStoreOperation, table, withStoreOptions, type Io, type StoreOpts } from './common.js';
import { OPERATIONS } from './operations.js';

type FilterOpts = StoreOpts & {
  org?: string; action?: string; actor?: string; targetType?: string; targetId?: string; correlationId?: string;
  since?: string; until?: string; q?: string; limit?: string; json?: boolean;
};

/** The filters as they travel: durations turned into times here, where "now" is the operator's. */
function filterOf(o: FilterOpts) {
  const now = systemClock.now();
  return {
    action: o.action, actor: o.actor, targetType: o.targetType, targetId: o.targetId, correlationId: o.correlationId, q: o.q,
    since: timeBound(o.since, now, 'since', '--since')?.toISOString(), until: timeBound(o.until, now, 'until', '--until')?.toISOString(),
  };
}

function withFilters(cmd: Command): Command {
  return withStoreOptions(cmd)
    .option('--org <slug>', 'organisation (needed when there are several)')
    .option('--action <prefix>', 'action prefix, e.g. token. or change.registered')
    .option('--actor <id>', 'actor id (usr_…, a token id)')
    .option('--target-type <type>')
    .option('--target-id <id>')
    .option('--correlation-id <id>')
    .option('--since <when>', 'a duration back from now (1h, 7d) or an ISO time')
    .option('--until <when>', 'a duration back from now or an ISO time')
    .option('--q <text>', 'free text');
}

export function auditCommands(program: Command, io: Io, done: (code: number) => void): void {
  const audit = program.command('audit').description('read and check the tamper-evident audit ledger');

  withFilters(audit.command('query').description('audit events, newest first'))
    .option('--limit <n>', 'at most this many events (1–500)', '50')
    .option('--json', 'print a JSON array')
    .action(async (o: FilterOpts) => {
      const args = OPERATIONS['audit.query'].check({ org: o.org, filter: filterOf(o), limit: Number(o.limit) });
      const items = await runStoreOperation(o, 'audit.query', args);
      if (o.json) io.out(`${JSON.stringify(items, null, 2)}\n`);
      else if (items.length === 0) io.err('no audit events match\n');
      else {
        io.out(table([['TIME', 'SEQ', 'ACTOR', 'ACTION', 'TARGET', 'SOURCE'], ...items.map((e) => [e.occurredAt, String(e.seq), e.actor.name, e.action, `${e.target.type}:${e.target.id}`, e.source])]));
      }
      done(EXIT.ok);
    });

  withFilters(audit.command('export').description('every matching audit event as NDJSON on stdout')).action(async (o: FilterOpts) => {
    const args = OPERATIONS['audit.export'].check({ org: o.org, filter: filterOf(o) });
    await runStoreOperation(o, 'audit.export', args, (e) => io.out(`${JSON.stringify(e)}\n`));
    done(EXIT.ok);
  });

  withStoreOptions(audit.command('verify').description('walk each hash chain; exit 1 naming the first broken event'))
    .option('--org <slug>', 'only this organisation')
    .option('--json', 'print the result as JSON')
    .action(async (o: StoreOpts & { org?: string; json?: boolean }) => {
      const results = await runStoreOperation(o, 'audit.verify', OPERATIONS['audit.verify'].check({ org: o.org }));
      if (o.json) io.out(`${JSON.stringify(o.org ? results[0] : results, null, 2)}\n`);
      else {
        for (const r of results) {
          if (r.ok) io.out(`${r.organization}: intact, ${r.checked} events, head #${r.head?.seq ?? 0} ${r.head?.hash ?? '-'}\n`);
          else io.out(`${r.organization}: BROKEN at event ${r.firstBrokenSeq} (${r.checked} events checked): ${r.reason}\n`);
        }
      }
      done(results.every((r) => r.ok) ? EXIT.ok : EXIT.failed);
    });

  withStoreOptions(audit.command('digest').description('print the head of each chain (sequence and hash) to keep elsewhere'))
    .option('--org <slug>', 'only this organisation')
    .option('--json', 'print JSON')
    .action(async (o: StoreOpts & { org?: string; json?: boolean }) => {
      const digests = await runStoreOperation(o, 'audit.digest', OPERATIONS['audit.digest'].check({ org: o.org }));
      if (o.json) io.out(`${JSON.stringify(o.org ? digests[0] : digests, null, 2)}\n`);
      else for (const d of digests) io.out(`${d.organization} ${d.seq} ${d.hash} ${d.occurredAt ?? '-'}\n`);
      done(EXIT.ok);
    });
}
