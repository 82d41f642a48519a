import fc from 'fast-check';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../platform/paths.js';
import { GENESIS_HASH, hashEvent, type AuditEvent } from './audit-event.js';
import { EXPORT_FORMAT, soundInParallel, verifyExportFile, type ExportTrailer } from './ledger-file.js';

const dir = mkdtempSync(join(tmpdir(), 'changeledger-ledger-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An export of n events whose lines carry multi-byte text, so that chunk edges fall inside characters and lines. */
function exportOf(n: number): string[] {
  const lines: string[] = [];
  let prev = GENESIS_HASH;
  for (let seq = 1; seq <= n; seq++) {
    const body: Omit<AuditEvent, 'hash'> = {
      orgId: 'org_big', seq, occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
      actor: { kind: 'user', id: 'usr_1', name: 'zoë@example.test', automation: null, trigger: null }, action: 'flag.updated',
      target: { type: 'flag', id: `f${seq}` }, correlationId: null, requestId: null, source: 'ui',
      data: { reason: `überprüft ✓ ${'é'.repeat(seq % 300)}`, seq }, schemaVersion: 1, prevHash: prev,
    };
    const e = { ...body, hash: hashEvent(body) };
    const { orgId: _o, ...pub } = e;
    lines.unshift(JSON.stringify(pub));
    prev = e.hash;
  }
  lines.push(JSON.stringify({ trailer: { format: EXPORT_FORMAT, organization: { id: 'org_big', slug: 'big' }, head: { seq: n, hash: prev }, events: n, complete: true, order: 'newest-first', exportedAt: '2026-12-04T00:00:00.000Z' } }));
  return lines;
}

describe('verifying an export file larger than one read', () => {
  const lines = exportOf(6_000);
  it('reads lines and characters that straddle the reads intact', async () => {
    const path = join(dir, 'big.ndjson');
    writeFileSync(path, `${lines.join('\r\n')}\r\n`);
    const r = await verifyExportFile(path);
    expect(r).toMatchObject({ ok: true, checked: 6_000, complete: true, reason: null });
  });
  it('names the line of an edit deep in the file', async () => {
    const path = join(dir, 'edited.ndjson');
    writeFileSync(path, `${lines.map((l, i) => (i === 4_321 ? l.replace('überprüft', 'uberpruft') : l)).join('\n')}\n`);
    const r = await verifyExportFile(path);
    expect(r).toMatchObject({ ok: false, line: 4_322, firstBrokenSeq: 6_000 - 4_321 });
    expect(r.reason).toMatch(/was altered \(line 4322\)/);
  });
  it('takes a member the ledger never writes as an edit', async () => {
    const path = join(dir, 'added.ndjson');
    writeFileSync(path, `${lines.map((l, i) => (i === 3 ? l.replace('{"seq"', '{"approved":true,"seq"') : l)).join('\n')}\n`);
    const r = await verifyExportFile(path);
    expect(r.reason).toMatch(/event 5997 was altered \(line 4\): it has members an audit event does not have/);
  });
});

describe('verifying a large export in parallel, a worker thread a range', () => {
  const n = 3_000;
  const lines = exportOf(n);
  const trailer = (JSON.parse(lines.at(-1)!) as { trailer: ExportTrailer }).trailer;
  const sequential = { parallel: { fromBytes: Number.POSITIVE_INFINITY } };
  const hashOfSeq = (seq: number) => (JSON.parse(lines[n - seq]!) as { hash: string }).hash;

  it('finds an intact export sound in 2, 3 and 5 ranges, with the hashes of the checkpoints it was asked for, as one walk does', async () => {
    const path = join(dir, 'parallel.ndjson');
    writeFileSync(path, `${lines.join('\r\n')}\r\n\r\n`);
    for (const parts of [2, 3, 5]) {
      const quick = await soundInParallel(path, trailer, [1, 1_500, n, n + 7], { fromBytes: 0, parts });
      expect(quick?.events).toBe(n);
      expect([...quick!.found].sort((a, b) => a[0] - b[0])).toEqual([[1, hashOfSeq(1)], [1_500, hashOfSeq(1_500)], [n, hashOfSeq(n)]]);
      expect(await verifyExportFile(path, { parallel: { fromBytes: 0, parts } })).toEqual(await verifyExportFile(path, sequential));
    }
  });

  it('runs its workers from the build too, where there is no tsx (npm test builds first)', async () => {
    const built = join(packageRoot, 'dist', 'server', 'domains', 'ledger', 'ledger-file.js');
    expect(existsSync(built), `${built} is missing: run npm run build (npm test does) before this test`).toBe(true);
    const path = join(dir, 'parallel-built.ndjson');
    writeFileSync(path, `${lines.join('\n')}\n`);
    const mod = (await import(pathToFileURL(built).href)) as { soundInParallel: typeof soundInParallel };
    expect((await mod.soundInParallel(path, trailer, [], { fromBytes: 0, parts: 2 }))?.events).toBe(n);
  });

  it('never finds sound what one walk finds broken, and then says the same as one walk', async () => {
    const tamper = fc.oneof(
      fc.record({ kind: fc.constant('edit' as const), line: fc.nat(n - 1), at: fc.nat(400), char: fc.constantFrom('0', 'a', '"', '}', 'é') }),
      fc.record({ kind: fc.constantFrom('drop' as const, 'swap' as const, 'repeat' as const), line: fc.nat(n) }),
      fc.record({ kind: fc.constantFrom('cut' as const, 'after-trailer' as const, 'trailer-events' as const) }),
    );
    let broken = 0;
    await fc.assert(fc.asyncProperty(tamper, fc.integer({ min: 2, max: 3 }), async (t, parts) => {
      const out = [...lines];
      if (t.kind === 'edit') {
        const l = out[t.line]!;
        const i = t.at % l.length;
        out[t.line] = l.slice(0, i) + t.char + l.slice(i + 1);
      } else if (t.kind === 'drop') out.splice(t.line, 1);
      else if (t.kind === 'swap') [out[t.line % n], out[(t.line % n) + 1]] = [out[(t.line % n) + 1]!, out[t.line % n]!];
      else if (t.kind === 'repeat') out.splice(t.line, 0, out[t.line % n]!);
      else if (t.kind === 'cut') out.splice(-2, 2);
      else if (t.kind === 'after-trailer') out.push(out[0]!);
      else out[n] = out[n]!.replace(`"events":${n}`, `"events":${n + 1}`);
      const path = join(dir, 'tampered.ndjson');
      writeFileSync(path, `${out.join('\n')}\n`);
      const one = await verifyExportFile(path, sequential);
      if (!one.ok) broken += 1;
      // Had the ranges passed a broken file, this would say ok where one walk says broken.
      expect(await verifyExportFile(path, { parallel: { fromBytes: 0, parts } })).toEqual(one);
    }), { numRuns: 16 });
    expect(broken).toBeGreaterThan(10);
  }, 240_000);
});
