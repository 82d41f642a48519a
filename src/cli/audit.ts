import type { Command } from 'commander';
import { systemClock, timeBound } from '../platform/clock.js';
import { badRequest } from '../platform/errors.js';
import type { AuthService } from '../domains/auth/index.js';
import { iterateAuditEvents, ledgerDigest, listAuditEvents, publicEvent, verifyLedger, type AuditFilter } from '../domains/ledger/index.js';
import { cliServices, EXIT, table, withStore, withStoreOptions, type Io, type StoreOpts } from './common.js';

type FilterOpts = StoreOpts & {
  org?: string; action?: string; actor?: string; targetType?: string; targetId?: string; correlationId?: string;
  since?: string; until?: string; q?: string; limit?: string; json?: boolean;
};

function filterOf(o: FilterOpts): AuditFilter {
  const now = systemClock.now();
  return {
    action: o.action, actor: o.actor, targetType: o.targetType, targetId: o.targetId, correlationId: o.correlationId, q: o.q,
    since: timeBound(o.since, now, 'since', '--since'), until: timeBound(o.until, now, 'until', '--until'),
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

/** Runs a check for the named organisation, or for every one, labelled by slug. */
async function perOrganization<T extends object>(auth: AuthService, slug: string | undefined, fn: (orgId: string) => Promise<T>): Promise<Array<T & { organization: string }>> {
  const orgs = slug ? [await auth.resolveOrganization(slug)] : await auth.listOrganizations();
  const out: Array<T & { organization: string }> = [];
  for (const org of orgs) out.push({ organization: org.slug, ...(await fn(org.id)) });
  return out;
}

export function auditCommands(program: Command, io: Io, done: (code: number) => void): void {
  const audit = program.command('audit').description('read and check the tamper-evident audit ledger');

  withFilters(audit.command('query').description('audit events, newest first'))
    .option('--limit <n>', 'at most this many events (1–500)', '50')
    .option('--json', 'print a JSON array')
    .action(async (o: FilterOpts) => {
      const limit = Number(o.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw badRequest('--limit must be 1 to 500', 'limit');
      await withStore(o, 'audit query', async (db) => {
        const org = await cliServices(db, o).auth.resolveOrganization(o.org);
        const page = await listAuditEvents(db, org.id, filterOf(o), limit);
        if (o.json) io.out(`${JSON.stringify(page.items.map(publicEvent), null, 2)}\n`);
        else if (page.items.length === 0) io.err('no audit events match\n');
        else {
          io.out(table([['TIME', 'SEQ', 'ACTOR', 'ACTION', 'TARGET', 'SOURCE'], ...page.items.map((e) => [e.occurredAt, String(e.seq), e.actor.name, e.action, `${e.target.type}:${e.target.id}`, e.source])]));
        }
      });
      done(EXIT.ok);
    });

  withFilters(audit.command('export').description('every matching audit event as NDJSON on stdout')).action(async (o: FilterOpts) => {
    await withStore(o, 'audit export', async (db) => {
      const org = await cliServices(db, o).auth.resolveOrganization(o.org);
      for await (const e of iterateAuditEvents(db, org.id, filterOf(o))) io.out(`${JSON.stringify(publicEvent(e))}\n`);
    });
    done(EXIT.ok);
  });

  withStoreOptions(audit.command('verify').description('walk each hash chain; exit 1 naming the first broken event'))
    .option('--org <slug>', 'only this organisation')
    .option('--json', 'print the result as JSON')
    .action(async (o: StoreOpts & { org?: string; json?: boolean }) => {
      const results = await withStore(o, 'audit verify', (db) => perOrganization(cliServices(db, o).auth, o.org, (id) => verifyLedger(db, id)));
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
      const digests = await withStore(o, 'audit digest', (db) => perOrganization(cliServices(db, o).auth, o.org, (id) => ledgerDigest(db, id)));
      if (o.json) io.out(`${JSON.stringify(o.org ? digests[0] : digests, null, 2)}\n`);
      else for (const d of digests) io.out(`${d.organization} ${d.seq} ${d.hash} ${d.occurredAt ?? '-'}\n`);
      done(EXIT.ok);
    });
}
