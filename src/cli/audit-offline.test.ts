import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyPostgresDatabase, engineNames } from '../../test/support/engines.js';
import { createOwner, runCli } from '../../test/support/spawn-server.js';
import { systemClock } from '../platform/clock.js';
import { openDatabase, type Database } from '../platform/db/database.js';
import { packageRoot } from '../platform/paths.js';
import { appendAuditEvent } from '../domains/ledger/index.js';
import { cliContext } from './common.js';

const run = promisify(execFile);

/** Runs a program and answers its exit code and output, whatever the code. */
async function exec(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(file, args, { cwd: packageRoot });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

const script = join(packageRoot, 'scripts', 'verify-ledger.mjs');

for (const engine of engineNames()) describe(`an exported ledger verified offline, with signed checkpoints [${engine}]`, { timeout: 300_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'changeledger-offline-'));
  const dataDir = join(dir, 'data');
  let storeArgs: string[] = ['--data', dataDir];
  let dropPg: (() => Promise<void>) | null = null;
  const file = (name: string) => join(dir, name);
  let lines: string[] = [];

  async function openStore(): Promise<Database> {
    return storeArgs.includes('--database-url')
      ? openDatabase({ engine: 'postgres', url: storeArgs[storeArgs.indexOf('--database-url') + 1]! })
      : openDatabase({ engine: 'pglite', dataDir, lock: false });
  }
  async function append(n: number): Promise<void> {
    const db = await openStore();
    try {
      const orgId = (await db.query<{ id: string }>('SELECT id FROM organizations')).rows[0]!.id;
      for (let i = 0; i < n; i += 1) {
        await db.transaction((tx) => appendAuditEvent(tx, systemClock, cliContext(), { orgId, action: 'flag.updated', target: { type: 'flag', id: `f${i}` }, data: { on: i % 2 === 0, note: 'ünïcode ✓' } }));
      }
    } finally {
      await db.close();
    }
  }
  async function cli(args: string[]) {
    const r = await runCli([...args, ...storeArgs]);
    expect(r.code, r.stderr).toBe(0);
    return r.stdout;
  }
  /** The CLI's and the standalone script's verdicts on a file: they must agree. */
  async function verdicts(path: string, extra: string[] = []) {
    const product = await runCli(['audit', 'verify', '--file', path, ...extra]);
    const standalone = await exec(process.execPath, [script, path, ...extra]);
    return { product, standalone };
  }

  beforeAll(async () => {
    if (engine === 'postgres') {
      const pg = await emptyPostgresDatabase('offline');
      storeArgs = [...storeArgs, '--database-url', pg.url];
      dropPg = pg.drop;
    }
    await createOwner(dataDir, 'auditor@example.test', 'correct horse battery staple', storeArgs.slice(2));
    await append(30);
    writeFileSync(file('cp1.txt'), await cli(['audit', 'checkpoint']));
    await append(20);
    writeFileSync(file('cp2.txt'), await cli(['audit', 'checkpoint']));
    writeFileSync(file('key.pem'), await cli(['audit', 'checkpoint-key']));
    writeFileSync(file('ledger.ndjson'), await cli(['audit', 'export']));
    lines = readFileSync(file('ledger.ndjson'), 'utf8').trimEnd().split('\n');
  }, 300_000);
  afterAll(async () => {
    await dropPg?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ends the export with a trailer naming the head, and the CLI and the standalone script find it intact without a database', async () => {
    const trailer = (JSON.parse(lines.at(-1)!) as { trailer: { head: { seq: number }; events: number; complete: boolean } }).trailer;
    expect(trailer).toMatchObject({ complete: true, events: lines.length - 1 });
    expect(trailer.head.seq).toBe(lines.length - 1);
    // No store options at all: the verdict comes from the file alone.
    const { product, standalone } = await verdicts(file('ledger.ndjson'));
    expect(product.code, product.stderr).toBe(0);
    expect(product.stdout).toMatch(new RegExp(`intact, ${trailer.events} events, head #${trailer.head.seq} [0-9a-f]{64}`));
    expect(standalone.code, standalone.stderr).toBe(0);
    expect(standalone.stdout).toMatch(new RegExp(`intact, ${trailer.events} events`));
  });

  it('proves that the later checkpoint extends the earlier one', async () => {
    const cps = ['--checkpoint', file('cp1.txt'), '--checkpoint', file('cp2.txt'), '--key', file('key.pem')];
    const { product, standalone } = await verdicts(file('ledger.ndjson'), cps);
    expect(product.code, product.stderr).toBe(0);
    const [s1, s2] = [1, 2].map((i) => Number(readFileSync(file(`cp${i}.txt`), 'utf8').split('\n')[1]));
    expect(s2).toBeGreaterThan(s1!);
    expect(product.stdout).toContain(`checkpoint #${s2} extends checkpoint #${s1}`);
    expect(standalone.code, standalone.stderr).toBe(0);
    expect(standalone.stdout).toContain(`checkpoint #${s2} extends checkpoint #${s1}`);
  });

  const tampered: Array<[string, (l: string[]) => string[], RegExp]> = [
    ['an edited field', (l) => l.map((x, i) => (i === 10 ? x.replace('"flag.updated"', '"flag.deleted"') : x)), /event \d+ was altered \(line 11\)/],
    ['a dropped line', (l) => l.filter((_, i) => i !== 10), /event \d+ is missing \(line 11 holds event \d+\)/],
    ['two lines swapped', (l) => [...l.slice(0, 10), l[11]!, l[10]!, ...l.slice(12)], /event \d+ is out of order: line 11 holds event \d+ where event \d+ belongs/],
    ['a truncated tail', (l) => l.slice(0, -3), /no trailer/],
  ];
  for (const [what, edit, message] of tampered) {
    it(`detects ${what}, and both verifiers name it`, async () => {
      const path = file(`${what.replace(/ /g, '-')}.ndjson`);
      writeFileSync(path, `${edit(lines).join('\n')}\n`);
      const { product, standalone } = await verdicts(path);
      expect(product.code).toBe(1);
      expect(product.stdout).toMatch(message);
      expect(standalone.code).toBe(1);
      expect(standalone.stderr).toMatch(message);
    });
  }

  it('refuses a forged checkpoint, and openssl refuses its signature too', async () => {
    const real = readFileSync(file('cp2.txt'), 'utf8');
    // The same signature over a head that claims one event fewer.
    const [origin, seq, ...rest] = real.split('\n');
    const forged = [origin, String(Number(seq) - 1), ...rest].join('\n');
    writeFileSync(file('forged.txt'), forged);
    const r = await runCli(['audit', 'verify', '--file', file('ledger.ndjson'), '--checkpoint', file('forged.txt'), '--key', file('key.pem')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/the signature does not verify with this key/);

    // openssl, as README shows: the note's text before the blank line, and the 64 signature bytes after the key id.
    const check = async (note: string, name: string) => {
      writeFileSync(file(`${name}.body`), note.slice(0, note.indexOf('\n\n') + 1));
      const sig = Buffer.from(note.trimEnd().split('\n').at(-1)!.split(' ').at(-1)!, 'base64').subarray(4);
      writeFileSync(file(`${name}.sig`), sig);
      return exec('openssl', ['pkeyutl', '-verify', '-pubin', '-inkey', file('key.pem'), '-rawin', '-in', file(`${name}.body`), '-sigfile', file(`${name}.sig`)]);
    };
    const good = await check(real, 'real');
    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout).toMatch(/Signature Verified Successfully/);
    const bad = await check(forged, 'forged');
    expect(bad.code).not.toBe(0);
    expect(`${bad.stdout}${bad.stderr}`).toMatch(/Signature Verification Failure/);
  });

  it('says when a checkpoint names a head the export does not reach: the newest events were dropped', async () => {
    // The export as it stood at the first checkpoint's time would be older than the second checkpoint.
    const s1 = Number(readFileSync(file('cp1.txt'), 'utf8').split('\n')[1]);
    const db = await openStore();
    const head = await (async () => {
      try {
        const orgId = (await db.query<{ id: string }>('SELECT id FROM organizations')).rows[0]!.id;
        return (await db.query<{ hash: string }>('SELECT hash FROM audit_events WHERE org_id = $1 AND seq = $2', [orgId, s1])).rows[0]!.hash;
      } finally {
        await db.close();
      }
    })();
    const trailer = JSON.parse(lines.at(-1)!) as { trailer: Record<string, unknown> };
    const cut = lines.slice(lines.length - 1 - s1, -1);
    writeFileSync(file('cut.ndjson'), `${[...cut, JSON.stringify({ trailer: { ...trailer.trailer, head: { seq: s1, hash: head }, events: s1 } })].join('\n')}\n`);
    const r = await runCli(['audit', 'verify', '--file', file('cut.ndjson'), '--checkpoint', file('cp2.txt'), '--key', file('key.pem')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/checkpoint at #\d+ is beyond this export's head #\d+/);
  });

  it('explains a missing key and a missing file as usage errors', async () => {
    const noKey = await runCli(['audit', 'verify', '--file', file('ledger.ndjson'), '--checkpoint', file('cp1.txt')]);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/needs the public key .*--key FILE/);
    const noFile = await runCli(['audit', 'verify', '--file', file('nothing.ndjson')]);
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toMatch(/there is no file .*nothing\.ndjson/);
  });
});
