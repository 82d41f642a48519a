/**
 * `npm run bench -- verify-file [--events N] [--keep]`: offline verification of an exported ledger
 * (`audit verify --file`, and the standalone scripts/verify-ledger.mjs) over N events (default
 * 1,000,000), against the hashing floor: a plain SHA-256 of the same file's bytes. Goal: at least
 * 100,000 events a second. No database: the file is written here, chained as the ledger chains it.
 * Runs the built command line (`npm run build` first), start-up included.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { GENESIS_HASH, hashEvent, type AuditEvent } from '../src/domains/ledger/audit-event.js';
import { EXPORT_FORMAT } from '../src/domains/ledger/ledger-file.js';
import { packageRoot } from '../src/platform/paths.js';
import { busy, int, machine, parseOptions, positiveInt, say, seconds, seededRandom, table, UsageError } from './bench-support.js';

const ACTIONS = ['flag.updated', 'change.registered', 'change.approved', 'change.started', 'change.completed', 'token.created'];

/** Events like a busy organisation's: people and tokens, flags and changes, small before/after data. */
async function writeExport(path: string, n: number): Promise<void> {
  const rnd = seededRandom(7);
  const orgId = 'org_bench0000000000000000000000000';
  let prev = { seq: 0, hash: GENESIS_HASH };
  const t0 = Date.parse('2026-01-01T00:00:00Z');
  // Chained oldest first, written newest first: the export's order.
  const lines: string[] = new Array<string>(n);
  for (let seq = 1; seq <= n; seq++) {
    const action = ACTIONS[Math.floor(rnd() * ACTIONS.length)]!;
    const body: Omit<AuditEvent, 'hash'> = {
      orgId, seq, occurredAt: new Date(t0 + seq * 1_000).toISOString(),
      actor: rnd() < 0.7 ? { kind: 'user', id: `usr_${seq % 97}`, name: `person${seq % 97}@example.com`, automation: null, trigger: null }
        : { kind: 'token', id: `tok_${seq % 13}`, name: 'deploy pipeline', automation: 'github-actions', trigger: `run ${seq}` },
      action, target: action.startsWith('flag') ? { type: 'flag', id: `payments.checkout.f${seq % 500}` } : { type: 'change', id: `CHG-${seq}` },
      correlationId: rnd() < 0.5 ? `req_${seq.toString(16)}` : null, requestId: `req_${(seq * 7).toString(16)}`, source: rnd() < 0.5 ? 'api' : 'ui',
      data: action === 'flag.updated' ? { env: 'production', before: { on: seq % 2 === 0 }, after: { on: seq % 2 === 1 }, reason: `OPS-${seq % 1000}: rollout step` }
        : { service: `svc-${seq % 300}`, environment: 'production', risk: rnd() < 0.2 ? 'high' : 'low' },
      schemaVersion: 1, prevHash: prev.hash,
    };
    const e: AuditEvent = { ...body, hash: hashEvent(body) };
    const { orgId: _o, ...pub } = e;
    lines[n - seq] = JSON.stringify(pub);
    prev = e;
  }
  const out = createWriteStream(path);
  for (let i = 0; i < lines.length; i += 10_000) {
    if (!out.write(`${lines.slice(i, i + 10_000).join('\n')}\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  out.write(`${JSON.stringify({ trailer: { format: EXPORT_FORMAT, organization: { id: orgId, slug: 'bench' }, head: prev, events: n, complete: true, order: 'newest-first', exportedAt: new Date().toISOString() } })}\n`);
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
}

async function sha256Of(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

export async function run(args: string[]): Promise<void> {
  const { values, flags } = parseOptions(args, { values: ['events'], flags: ['keep'] });
  const n = positiveInt('--events', values.get('events')) ?? 1_000_000;
  if (!existsSync(join(packageRoot, 'dist', 'server', 'cli', 'main.js'))) throw new UsageError('verify-file runs the built command line: run `npm run build` first');
  const dir = mkdtempSync(join(tmpdir(), 'changeledger-bench-verify-'));
  const file = join(dir, 'ledger.ndjson');
  try {
    for (const line of machine()) say(line);
    say(`verify-file: ${int(n)} events; load average ${busy()}`);
    const made = await timed(() => writeExport(file, n));
    const bytes = statSync(file).size;
    say(`wrote ${(bytes / 2 ** 20).toFixed(0)} MiB in ${seconds(made.ms)} (${int(Math.round(bytes / n))} bytes an event)`);

    // Alternated, best of two each: the machine is shared, and the first read warms the page cache.
    const floor: number[] = [];
    const product: number[] = [];
    const script: number[] = [];
    for (let round = 0; round < 2; round++) {
      floor.push((await timed(() => sha256Of(file))).ms);
      // The built command line, as an auditor runs it: its start-up is part of the time.
      const p = await timed(() => promisify(execFile)(process.execPath, [join(packageRoot, 'bin', 'changeledger.js'), 'audit', 'verify', '--file', file], { maxBuffer: 1 << 20 }));
      if (!new RegExp(`intact, ${n} events`).test(p.value.stdout)) throw new Error(`the product found the bench file broken: ${p.value.stdout}`);
      product.push(p.ms);
      const s = await timed(() => promisify(execFile)(process.execPath, [join(packageRoot, 'scripts', 'verify-ledger.mjs'), file], { maxBuffer: 1 << 20 }));
      if (!/intact/.test(s.value.stdout)) throw new Error(`the script found the bench file broken: ${s.value.stdout}`);
      script.push(s.ms);
    }
    const best = (xs: number[]) => Math.min(...xs);
    const rate = (msValue: number) => int(Math.round(n / (msValue / 1_000)));
    const rows = [
      ['sha256 of the bytes (floor)', seconds(best(floor)), rate(best(floor)), `${(bytes / 2 ** 20 / (best(floor) / 1_000)).toFixed(0)} MiB/s`, '1.00'],
      ['changeledger audit verify --file', seconds(best(product)), rate(best(product)), `${(bytes / 2 ** 20 / (best(product) / 1_000)).toFixed(0)} MiB/s`, (best(floor) / best(product)).toFixed(2)],
      ['scripts/verify-ledger.mjs', seconds(best(script)), rate(best(script)), `${(bytes / 2 ** 20 / (best(script) / 1_000)).toFixed(0)} MiB/s`, (best(floor) / best(script)).toFixed(2)],
    ];
    say(table(['verifier', 'time', 'events/s', 'throughput', 'floor / it'], rows));
    const goal = n / (best(product) / 1_000) >= 100_000;
    say(`goal: audit verify --file at least 100,000 events/s: ${goal ? 'met' : 'MISSED'} (${rate(best(product))}/s; the script ${rate(best(script))}/s)`);
  } finally {
    if (flags.has('keep')) say(`kept ${file}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}
