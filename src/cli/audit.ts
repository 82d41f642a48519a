import type { Command } from 'commander';
import { systemClock, timeBound } from '../platform/clock.js';
import { existsSync } from 'node:fs';
import { badRequest } from '../platform/errors.js';
import { verifyExportFile } from '../domains/ledger/index.js';
import { EXIT, readInputFile, runStoreOperation, table, withStoreOptions, type Io, type StoreOpts } from './common.js';
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

  withFilters(audit.command('export').description('every matching audit event as NDJSON on stdout, newest first, then a trailer line naming the head (without filters: the whole chain, for audit verify --file)')).action(async (o: FilterOpts) => {
    const args = OPERATIONS['audit.export'].check({ org: o.org, filter: filterOf(o) });
    await runStoreOperation(o, 'audit.export', args, (e) => io.out(`${JSON.stringify(e)}\n`));
    done(EXIT.ok);
  });

  withStoreOptions(audit.command('verify').description('walk each hash chain; exit 1 naming the first broken event. With --file, an export is verified offline, without a database'))
    .option('--org <slug>', 'only this organisation')
    .option('--file <ledger.ndjson>', 'verify this export (from `audit export`) instead of the database; no database is opened')
    .option('--checkpoint <cp.txt>', 'with --file: a signed checkpoint the export must extend (repeat for several)', (v: string, all: string[]) => [...all, v], [] as string[])
    .option('--key <pub>', 'with --checkpoint: the public key (PEM from GET /api/audit/checkpoint-key, or a verifier key name+id+base64)')
    .option('--json', 'print the result as JSON')
    .action(async (o: StoreOpts & { org?: string; json?: boolean; file?: string; checkpoint: string[]; key?: string }) => {
      if (o.file !== undefined) return done(await verifyFile(io, o.file, o));
      if (o.checkpoint.length > 0 || o.key !== undefined) throw badRequest('--checkpoint and --key check an exported file: give it with --file', 'file');
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

  withStoreOptions(audit.command('checkpoint').description('sign a checkpoint of the ledger head now and print it (a C2SP signed note); save it for `audit verify --file … --checkpoint`'))
    .option('--org <slug>', 'organisation (needed when there are several)')
    .option('--json', 'print JSON (the note is its "note" field)')
    .action(async (o: StoreOpts & { org?: string; json?: boolean }) => {
      const cp = await runStoreOperation(o, 'audit.checkpoint', OPERATIONS['audit.checkpoint'].check({ org: o.org }));
      io.out(o.json ? `${JSON.stringify(cp, null, 2)}\n` : cp.note);
      done(EXIT.ok);
    });

  withStoreOptions(audit.command('checkpoint-key').description('print the public key that signs checkpoints (PEM), for `audit verify --key` and openssl'))
    .option('--json', 'print JSON: name, key id, PEM and the signed-note verifier key')
    .action(async (o: StoreOpts & { json?: boolean }) => {
      const key = await runStoreOperation(o, 'audit.checkpointKey', OPERATIONS['audit.checkpointKey'].check({}));
      io.out(o.json ? `${JSON.stringify(key, null, 2)}\n` : key.pem);
      done(EXIT.ok);
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

/** `audit verify --file`: the export and its checkpoints judged from the files alone. */
async function verifyFile(io: Io, file: string, o: { checkpoint: string[]; key?: string; json?: boolean; org?: string }): Promise<number> {
  if (!existsSync(file)) throw badRequest(`there is no file ${file}`, 'file');
  const checkpoints = o.checkpoint.map((f) => ({ file: f, text: readInputFile(f).text }));
  const key = o.key === undefined ? undefined : readInputFile(o.key).text;
  const r = await verifyExportFile(file, { checkpoints, key });
  if (o.org !== undefined && r.organization && o.org !== r.organization.slug && o.org !== r.organization.id) {
    throw badRequest(`${file} is the ledger of ${r.organization.slug}, not of ${o.org}`, 'org');
  }
  if (o.json) {
    io.out(`${JSON.stringify(r, null, 2)}\n`);
    return r.ok ? EXIT.ok : EXIT.failed;
  }
  const who = r.organization?.slug ?? file;
  if (!r.ok) {
    io.out(`${who}: BROKEN${r.firstBrokenSeq !== null ? ` at event ${r.firstBrokenSeq}` : ''} (${r.checked} events read): ${r.reason}\n`);
    return EXIT.failed;
  }
  if (r.complete) io.out(`${who}: intact, ${r.checked} events, head #${r.head?.seq ?? 0} ${r.head?.hash ?? '-'}\n`);
  else io.out(`${who}: each of the ${r.checked} events matches its hash, but this export was filtered, so it cannot show that no event is missing\n`);
  for (const c of r.checkpoints) io.out(`checkpoint #${c.seq} (${c.time || 'no time'}, ${c.file}): signed, and on this chain\n`);
  // In order of sequence: each one after the first extends the one before it.
  r.checkpoints.forEach((c, i) => {
    const before = r.checkpoints[i - 1];
    if (before && c.seq > before.seq) io.out(`checkpoint #${c.seq} extends checkpoint #${before.seq}: every event between them is in this file and links up\n`);
  });
  return EXIT.ok;
}
