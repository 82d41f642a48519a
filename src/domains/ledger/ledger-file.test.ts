import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GENESIS_HASH, hashEvent, type AuditEvent } from './audit-event.js';
import { EXPORT_FORMAT, verifyExportFile } from './ledger-file.js';

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
