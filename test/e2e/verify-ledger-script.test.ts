import { execFile } from 'node:child_process';
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENESIS_HASH, hashEvent, type AuditEvent } from '../../src/domains/ledger/audit-event.js';
import { checkpointSignedBy, parseCheckpoint, readVerifierKey } from '../../src/domains/ledger/checkpoint-note.js';
import { verifyExportFile } from '../../src/domains/ledger/ledger-file.js';
import { packageRoot } from '../../src/platform/paths.js';

/**
 * scripts/verify-ledger.mjs, the verifier an auditor runs with plain node and no install: export
 * files built here with the product's own hashEvent, checkpoints signed here as C2SP signed notes,
 * the script run as a child process, and its exit code and words checked. Every verdict (but a
 * usage error) is also put to the product's own `audit verify --file`, which must agree.
 */

const SCRIPT = join(packageRoot, 'scripts', 'verify-ledger.mjs');
const ORG = { id: 'org_abc123', slug: 'acme' };
const N = 20;

type Finished = { code: number; stdout: string; stderr: string };
type Keys = { publicKey: KeyObject; privateKey: KeyObject };

/** A chain of events 1…n, oldest first, hashed by the product; `edit` changes an event before it is hashed. */
function buildChain(n: number, edit: (e: Omit<AuditEvent, 'hash'>) => Omit<AuditEvent, 'hash'> = (e) => e): AuditEvent[] {
  const out: AuditEvent[] = [];
  let prevHash = GENESIS_HASH;
  for (let seq = 1; seq <= n; seq++) {
    const automated = seq % 4 === 0;
    const e = edit({
      orgId: ORG.id, seq, occurredAt: new Date(Date.UTC(2026, 0, 2, 9, seq, 30)).toISOString(),
      actor: automated
        ? { kind: 'automation', id: null, name: 'nightly rollout', automation: 'pipeline', trigger: `run #${seq}` }
        : { kind: 'user', id: `usr_${seq % 3}`, name: 'Zoë Ångström', automation: null, trigger: null },
      action: seq % 3 === 0 ? 'change.approved' : 'change.created', target: { type: 'change', id: `chg_${seq}` },
      correlationId: seq % 2 ? null : `corr-${seq}`, requestId: `req-${seq}`, source: automated ? 'scheduler' : 'api',
      // Keys out of order at every depth, unicode, nulls, arrays, floats: what canonical JSON must settle.
      data: { zeta: seq, Alpha: { b: [1, 'two', null, true, { y: 2, x: 1 }], a: '日本 "quoted" \\ é' }, ratio: seq / 8, empty: {} },
      schemaVersion: 1, prevHash,
    });
    const hash = hashEvent(e);
    out.push({ ...e, hash });
    prevHash = hash;
  }
  return out;
}

/** One export line as `changeledger audit export` writes it: the event without its orgId. */
const line = (e: AuditEvent) => {
  const { orgId: _org, ...rest } = e;
  return JSON.stringify(rest);
};

/** The trailer a complete export of these events (oldest first) ends with. */
function trailerOf(events: AuditEvent[], over: Record<string, unknown> = {}) {
  const head = events.at(-1);
  return {
    format: 'changeledger.audit-export.v1', organization: ORG, head: { seq: head?.seq ?? 0, hash: head?.hash ?? GENESIS_HASH },
    events: events.length, complete: true, order: 'newest-first', exportedAt: '2026-01-03T00:00:00.000Z', ...over,
  };
}

/** The key id of a signed note: the first four bytes of SHA-256(name, newline, 0x01, raw public key). */
function keyId(name: string, publicKey: KeyObject): Buffer {
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  return createHash('sha256').update(`${name}\n`).update(Buffer.from([1])).update(raw).digest().subarray(0, 4);
}

/** A checkpoint of event `e`: a tlog-checkpoint body signed as a C2SP signed note. */
function signCheckpoint(keys: Keys, e: { seq: number; hash: string }, o: { name?: string; origin?: string; time?: string } = {}): string {
  const name = o.name ?? 'changeledger.example.test';
  const body = `${o.origin ?? `changeledger/${ORG.id}`}\n${e.seq}\n${Buffer.from(e.hash, 'hex').toString('base64')}\norganisation ${ORG.slug}\ntime ${o.time ?? `2026-01-02T10:${String(e.seq).padStart(2, '0')}:00.000Z`}\n`;
  const signature = sign(null, Buffer.from(body, 'utf8'), keys.privateKey);
  return `${body}\n\u2014 ${name} ${Buffer.concat([keyId(name, keys.publicKey), signature]).toString('base64')}\n`;
}

describe('scripts/verify-ledger.mjs: an exported ledger verified with plain node', () => {
  let dir: string;
  let keys: Keys;
  let otherKeys: Keys;
  let keyFile: string;
  const chain = buildChain(N);
  const ev = (seq: number) => chain[seq - 1]!;
  let files = 0;

  /** Writes a file in the temp directory; returns its path. */
  const file = (text: string, ext = 'ndjson') => {
    const path = join(dir, `f${++files}.${ext}`);
    writeFileSync(path, text);
    return path;
  };
  /** An export file: the events newest first, then the trailer (null: none). */
  const exportFile = (events: AuditEvent[], trailer: Record<string, unknown> | null = trailerOf(events)) =>
    file([...events].reverse().map(line).concat(trailer ? [JSON.stringify({ trailer })] : []).map((l) => `${l}\n`).join(''));

  /** Runs the script; for any verdict but a usage error, the product's verifier must agree on intact or not. */
  async function verify(...args: string[]): Promise<Finished> {
    const r = await new Promise<Finished>((resolve) => {
      execFile(process.execPath, [SCRIPT, ...args], { cwd: packageRoot }, (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
      });
    });
    if (r.code !== 2) {
      const cps = args.flatMap((a, i) => (args[i - 1] === '--checkpoint' ? [{ file: a, text: readFileSync(a, 'utf8') }] : []));
      const k = args.indexOf('--key');
      const product = await verifyExportFile(args[0]!, { checkpoints: cps, ...(k >= 0 ? { key: readFileSync(args[k + 1]!, 'utf8') } : {}) });
      expect(product.ok, `the product's verifier says ${product.reason ?? 'intact'}; the script: ${r.stdout}${r.stderr}`).toBe(r.code === 0);
    }
    return r;
  }
  const expectBroken = (r: Finished, message: string) => {
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr.trim()).toBe(message);
    expect(r.stdout).toBe('');
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'changeledger-verify-ledger-'));
    keys = generateKeyPairSync('ed25519');
    otherKeys = generateKeyPairSync('ed25519');
    keyFile = file(keys.publicKey.export({ format: 'pem', type: 'spki' }).toString(), 'pem');
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is one short file of plain Node: fewer than 140 lines, importing only node: modules', () => {
    const text = readFileSync(SCRIPT, 'utf8');
    expect(text.split('\n').length).toBeLessThan(140);
    const imports = [...text.matchAll(/^import\s[^;]*?from\s+'([^']+)'/gm)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    for (const m of imports) expect(m).toMatch(/^node:/);
    expect(text).not.toMatch(/\brequire\(|import\(/);
  });

  it('intact: a complete export passes with exit 0 and names the organisation, count and head', async () => {
    const r = await verify(exportFile(chain));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`acme: intact, ${N} events, head #${N} ${ev(N).hash}\n`);
  });

  it('intact: an empty ledger (head #0, no event lines) passes', async () => {
    const r = await verify(exportFile([]));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`acme: intact, 0 events, head #0 ${GENESIS_HASH}\n`);
  });

  it('an edited field: the altered event and its line are named', async () => {
    const edited = chain.map((e) => (e.seq === 7 ? { ...e, data: { ...e.data, zeta: 700 } } : e));
    expectBroken(await verify(exportFile(edited)), 'event 7 was altered (line 14): its content no longer matches its hash');
    const actor = chain.map((e) => (e.seq === 3 ? { ...e, actor: { ...e.actor, name: 'mallory' } } : e));
    expectBroken(await verify(exportFile(actor)), 'event 3 was altered (line 18): its content no longer matches its hash');
  });

  it('an edited event given a fresh hash: the event above it no longer links to it', async () => {
    const rehashed = chain.map((e) => {
      if (e.seq !== 9) return e;
      const { hash: _h, ...rest } = { ...e, action: 'change.deleted' };
      return { ...rest, hash: hashEvent(rest) };
    });
    expectBroken(await verify(exportFile(rehashed)), 'event 10 does not link to event 9 (line 11)');
  });

  it('a dropped middle line: the missing event is named', async () => {
    const dropped = chain.filter((e) => e.seq !== 12);
    expectBroken(await verify(exportFile(dropped, trailerOf(chain))), 'event 12 is missing (line 9 holds event 11)');
    // Dropping the newest event under the same trailer is caught the same way.
    expectBroken(await verify(exportFile(chain.slice(0, -1), trailerOf(chain))), 'event 20 is missing (line 1 holds event 19)');
  });

  it('two lines swapped: the event out of order is named', async () => {
    const swapped = [...chain];
    [swapped[14], swapped[13]] = [swapped[13]!, swapped[14]!];
    expectBroken(await verify(exportFile(swapped, trailerOf(chain))), 'event 15 is out of order: line 6 holds event 14 where event 15 belongs');
  });

  it('a truncated tail: no trailer, and the line the file ends at is named', async () => {
    const full = readFileSync(exportFile(chain), 'utf8');
    const lines = full.split('\n');
    expectBroken(await verify(file(lines.slice(0, 17).map((l) => `${l}\n`).join(''))), 'no trailer: the file ends at line 17, so its tail was cut off');
    // Cut in the middle of a line: that line is no longer JSON.
    expectBroken(await verify(file(full.slice(0, full.indexOf(lines[17]!) + 40))), 'line 18 is not JSON: the file was cut or edited');
    expectBroken(await verify(file('')), 'no trailer: the file is empty');
  });

  it('a trailer anywhere but last, or of another format, is refused', async () => {
    const text = readFileSync(exportFile(chain), 'utf8').split('\n');
    expectBroken(await verify(file([text[20], ...text.slice(0, 21)].join('\n'))), 'line 2 comes after the trailer (line 1): the trailer must be the last line');
    expectBroken(await verify(exportFile(chain, trailerOf(chain, { format: 'other.v9' }))), 'the trailer\'s format is "other.v9", not changeledger.audit-export.v1');
  });

  it('trailer head mismatch: a trailer whose head is not the newest event is caught', async () => {
    const forged = trailerOf(chain, { head: { seq: N, hash: 'ab'.repeat(32) } });
    expectBroken(await verify(exportFile(chain, forged)), `the trailer's head does not match event ${N}`);
    const miscounted = trailerOf(chain, { events: N + 1 });
    expectBroken(await verify(exportFile(chain, miscounted)), `the trailer counts ${N + 1} events, but the file holds ${N}`);
  });

  it('oldest events cut (trailer retained): the missing oldest events are named', async () => {
    expectBroken(await verify(exportFile(chain.slice(4), trailerOf(chain))), 'events 1…4 are missing from the oldest end');
    const recounted = trailerOf(chain, { events: N - 4 });
    expectBroken(await verify(exportFile(chain.slice(4), recounted)), 'events 1…4 are missing from the oldest end');
  });

  it('filtered export: each event is checked against its hash, and the file says it cannot prove none is missing', async () => {
    const approved = chain.filter((e) => e.action === 'change.approved');
    const trailer = trailerOf(chain, { complete: false, events: approved.length, filter: { action: 'change.approved' } });
    const r = await verify(exportFile(approved, trailer));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`acme: filtered export: each event matches its hash, but a filtered export cannot show that none is missing (${approved.length} events)\n`);
    // Adjacent events that are consecutive must still link; an altered one is still caught.
    const stretch = chain.slice(4, 10);
    const filtered = trailerOf(chain, { complete: false, events: stretch.length, filter: { from: 'x' } });
    expect((await verify(exportFile(stretch, filtered))).code).toBe(0);
    const altered = approved.map((e) => (e.seq === 9 ? { ...e, occurredAt: '2020-01-01T00:00:00.000Z' } : e));
    expectBroken(await verify(exportFile(altered, trailer)), `event 9 was altered (line ${approved.length - 2}): its content no longer matches its hash`);
  });

  it('the test\'s checkpoint signer writes what the product reads and signs', () => {
    const cp = parseCheckpoint(signCheckpoint(keys, ev(12)));
    expect(cp).toMatchObject({ origin: `changeledger/${ORG.id}`, seq: 12, hash: ev(12).hash, organisation: 'acme' });
    expect(checkpointSignedBy(cp, { name: 'changeledger.example.test', publicKey: readVerifierKey(keys.publicKey.export({ format: 'pem', type: 'spki' }).toString()).publicKey })).toBe(true);
  });

  it('a valid checkpoint: shown to be on this chain', async () => {
    const cp = file(signCheckpoint(keys, ev(12)), 'txt');
    const r = await verify(exportFile(chain), '--checkpoint', cp, '--key', keyFile);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`acme: intact, ${N} events, head #${N} ${ev(N).hash}\ncheckpoint #12 (time 2026-01-02T10:12:00.000Z): on this chain\n`);
  });

  it('two checkpoints: each is on this chain, and the later extends the earlier', async () => {
    const late = file(signCheckpoint(keys, ev(18)), 'txt');
    const early = file(signCheckpoint(keys, ev(5)), 'txt');
    const r = await verify(exportFile(chain), `--checkpoint=${late}`, '--key', keyFile, '--checkpoint', early);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n').slice(1)).toEqual([
      'checkpoint #5 (time 2026-01-02T10:05:00.000Z): on this chain',
      'checkpoint #18 (time 2026-01-02T10:18:00.000Z): on this chain',
      'checkpoint #18 extends checkpoint #5: one unbroken chain runs through both',
      '',
    ]);
  });

  it('a forged checkpoint: an altered signature or altered text does not verify', async () => {
    const good = signCheckpoint(keys, ev(12));
    const sigAt = good.lastIndexOf(' ') + 20;
    const badSig = file(good.slice(0, sigAt) + (good[sigAt] === 'A' ? 'B' : 'A') + good.slice(sigAt + 1), 'txt');
    expectBroken(await verify(exportFile(chain), '--checkpoint', badSig, '--key', keyFile), `checkpoint ${badSig}: the signature does not verify with this key`);
    // The text made to name another event of the chain, signature kept.
    const moved = good.replace('\n12\n', '\n13\n').replace(Buffer.from(ev(12).hash, 'hex').toString('base64'), Buffer.from(ev(13).hash, 'hex').toString('base64'));
    const badText = file(moved, 'txt');
    expectBroken(await verify(exportFile(chain), '--checkpoint', badText, '--key', keyFile), `checkpoint ${badText}: the signature does not verify with this key`);
  });

  it('a checkpoint from another key does not verify with this key', async () => {
    const cp = file(signCheckpoint(otherKeys, ev(12)), 'txt');
    expectBroken(await verify(exportFile(chain), '--checkpoint', cp, '--key', keyFile), `checkpoint ${cp}: the signature does not verify with this key`);
  });

  it('a checkpoint beyond the head: the export lacks events the checkpoint saw', async () => {
    const cp = file(signCheckpoint(keys, ev(18)), 'txt');
    const older = chain.slice(0, 15);
    expectBroken(await verify(exportFile(older), '--checkpoint', cp, '--key', keyFile),
      'checkpoint at #18 is beyond this export\'s head #15: events after 15 were dropped, or the export is older than the checkpoint');
  });

  it('a checkpoint whose hash differs: the ledger was rewritten since it was signed', async () => {
    const cp = file(signCheckpoint(keys, ev(12)), 'txt');
    // Event 9 rewritten and everything after it re-hashed: a self-consistent file the checkpoint exposes.
    const rewritten = buildChain(N, (e) => (e.seq === 9 ? { ...e, data: { note: 'nothing happened' } } : e));
    const r0 = await verify(exportFile(rewritten));
    expect(r0.code, r0.stderr).toBe(0);
    expectBroken(await verify(exportFile(rewritten), '--checkpoint', cp, '--key', keyFile), 'checkpoint #12 does not match event 12: the ledger was rewritten since it was signed');
  });

  it('a checkpoint of another organisation is refused', async () => {
    const cp = file(signCheckpoint(keys, ev(12), { origin: 'changeledger/org_other' }), 'txt');
    expectBroken(await verify(exportFile(chain), '--checkpoint', cp, '--key', keyFile), `checkpoint ${cp} is of the ledger "changeledger/org_other", not of organisation ${ORG.id}`);
  });

  it('usage errors exit 2: --checkpoint without --key, a missing file, no file, an unknown option', async () => {
    const ledger = exportFile(chain);
    const cp = file(signCheckpoint(keys, ev(12)), 'txt');
    const noKey = await verify(ledger, '--checkpoint', cp);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/^--checkpoint needs --key FILE/);
    const missing = await verify(join(dir, 'nope.ndjson'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`cannot read ${join(dir, 'nope.ndjson')}: no such file`);
    const none = await verify();
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('usage: node scripts/verify-ledger.mjs ledger.ndjson');
    expect((await verify(ledger, '--frobnicate')).code).toBe(2);
    expect((await verify(ledger, '--key', ledger)).code).toBe(2);
  });
});
