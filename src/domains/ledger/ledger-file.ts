import { open, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { badRequest } from '../../platform/errors.js';
import { GENESIS_HASH, hashEventOf, type AuditEvent } from './audit-event.js';
import { checkpointSignedBy, parseCheckpoint, readVerifierKey, type ParsedCheckpoint } from './checkpoint-note.js';
import { EVENT_MEMBERS, jsonLines, type ByteRange, type RangeSummary, type RangeWork } from './ledger-walk.js';

/**
 * An exported ledger, verified from the file alone: no database, no server. The export is newest
 * first and ends with a trailer that states the head it leads to, so the walk goes down from the
 * head to the first event, checking each event's hash and its link to the one before.
 */
export const EXPORT_FORMAT = 'changeledger.audit-export.v1';

export type ExportTrailer = {
  format: typeof EXPORT_FORMAT;
  organization: { id: string; slug: string };
  head: { seq: number; hash: string };
  events: number;
  /** False when a filter left events out: such a file shows edits, never drops. */
  complete: boolean;
  order: 'newest-first';
  exportedAt: string;
  filter?: Record<string, unknown>;
};

export type CheckpointFinding = { file: string; seq: number; time: string; ok: boolean; reason: string | null };

export type FileVerifyResult = {
  ok: boolean;
  organization: { id: string; slug: string } | null;
  complete: boolean;
  /** Event lines read before the verdict. */
  checked: number;
  head: { seq: number; hash: string } | null;
  firstBrokenSeq: number | null;
  line: number | null;
  reason: string | null;
  checkpoints: CheckpointFinding[];
};

/** Where a wanted event is in the file, when the walk met another in its place. */
async function lineOfSeq(path: string, seq: number): Promise<number | null> {
  for await (const batch of jsonLines(path)) for (const l of batch) if ('value' in l && l.value.seq === seq) return l.no;
  return null;
}

/**
 * The last non-empty line, read from the end of the file: the trailer names the organisation
 * whose id every hash covers, and the head the walk starts from.
 */
async function lastLine(path: string): Promise<string | null> {
  const fh = await open(path, 'r');
  try {
    const size = (await fh.stat()).size;
    let tail = Buffer.alloc(0);
    for (let end = size; end > 0;) {
      const start = Math.max(0, end - 65_536);
      const chunk = Buffer.alloc(end - start);
      await fh.read(chunk, 0, chunk.length, start);
      tail = Buffer.concat([chunk, tail]);
      end = start;
      const text = tail.toString('utf8').replace(/\s+$/, '');
      const nl = text.lastIndexOf('\n');
      if (text !== '' && (nl >= 0 || end === 0)) return text.slice(nl + 1);
    }
    return null;
  } finally {
    await fh.close();
  }
}

function parseTrailer(text: string | null): ExportTrailer | null {
  try {
    const v = JSON.parse(text ?? '') as { trailer?: ExportTrailer };
    return v && typeof v === 'object' && v.trailer && typeof v.trailer === 'object' ? v.trailer : null;
  } catch {
    return null;
  }
}

/** A key or checkpoint that cannot be read at all: a 4xx naming which, not a verdict on the file. */
function readOr<T>(field: 'key' | 'checkpoint', read: () => T, say: (message: string) => string): T {
  try {
    return read();
  } catch (err) {
    throw badRequest(say((err as Error).message), field);
  }
}

/** Below this size one walk is quicker than starting workers. */
const PARALLEL_MIN_BYTES = 16 << 20;

/** Cuts the file into about equal byte ranges, each starting at a line; null when a cut finds no line end. */
async function cutAtLines(path: string, size: number, parts: number): Promise<ByteRange[] | null> {
  const fh = await open(path, 'r');
  try {
    const starts = [0];
    const probe = Buffer.alloc(1 << 20);
    for (let i = 1; i < parts; i++) {
      const at = Math.floor((size * i) / parts);
      const { bytesRead } = await fh.read(probe, 0, probe.length, at);
      const nl = probe.subarray(0, bytesRead).indexOf(0x0a);
      if (nl < 0) return null;
      const start = at + nl + 1;
      if (start <= starts.at(-1)! || start >= size) return null;
      starts.push(start);
    }
    return starts.map((start, i) => ({ start, end: starts[i + 1] ?? size }));
  } finally {
    await fh.close();
  }
}

/** When the walk is split, and into how many ranges (tests set both; by default one a core from 16 MiB). */
export type ParallelOptions = { fromBytes?: number; parts?: number };

/** tsx's ESM API, by file (its CommonJS twin, which require would resolve, cannot register the hooks a worker needs). */
const tsxApi = () => pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist', 'esm', 'api', 'index.mjs')).href;

/** One range checked in a worker thread. From the TypeScript sources (tests, tsx), the worker loads tsx first. */
function inWorker(work: RangeWork): Promise<RangeSummary> {
  const ts = import.meta.url.endsWith('.ts');
  const entry = new URL(`./ledger-walk-worker.${ts ? 'ts' : 'js'}`, import.meta.url);
  const worker = ts
    ? new Worker(`import(${JSON.stringify(tsxApi())}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); })`, { eval: true, workerData: work })
    : new Worker(entry, { workerData: work });
  return new Promise<RangeSummary>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the verifying worker exited with ${code} before it answered`)));
  }).finally(() => void worker.terminate());
}

/**
 * The quick way through a large complete export: a worker per core checks a range of lines, and the
 * ranges must then join into one chain from the trailer's head down to the genesis. Answers the
 * events counted and the hashes of the wanted sequence numbers when all of it is sound, and null
 * otherwise (or when workers cannot run): the sequential walk then says what is broken and where.
 */
export async function soundInParallel(path: string, tr: ExportTrailer, wanted: number[], o: ParallelOptions = {}): Promise<{ events: number; found: Map<number, string> } | null> {
  const { size } = await stat(path);
  const parts = o.parts ?? Math.min(availableParallelism(), 8);
  if (parts < 2 || size < (o.fromBytes ?? PARALLEL_MIN_BYTES) || tr.head.seq < 1) return null;
  const ranges = await cutAtLines(path, size, parts);
  if (!ranges) return null;
  let summaries: RangeSummary[];
  try {
    summaries = await Promise.all(ranges.map((range) => inWorker({ path, range, orgId: tr.organization.id, wanted })));
  } catch {
    return null;
  }
  const sound = summaries.filter((x): x is Extract<RangeSummary, { sound: true }> => x.sound);
  if (sound.length !== summaries.length) return null;
  // The trailer is the last line of the last range, and of no other.
  if (!sound.at(-1)!.trailer || sound.slice(0, -1).some((x) => x.trailer)) return null;
  const withEvents = sound.filter((x) => x.events > 0);
  const newest = withEvents[0]?.first;
  if (!newest || newest.seq !== tr.head.seq || newest.hash !== tr.head.hash) return null;
  for (let i = 1; i < withEvents.length; i++) {
    const below = withEvents[i]!.first!;
    const above = withEvents[i - 1]!.last!;
    if (above.seq - 1 !== below.seq || above.prevHash !== below.hash) return null;
  }
  const oldest = withEvents.at(-1)!.last!;
  const events = withEvents.reduce((n, x) => n + x.events, 0);
  if (oldest.seq !== 1 || oldest.prevHash !== GENESIS_HASH || events !== tr.events) return null;
  return { events, found: new Map(sound.flatMap((x) => x.found)) };
}

/** A checkpoint judged against the hash the file holds at its sequence number. */
function onChain(c: { file: string; cp: ParsedCheckpoint }, hash: string): CheckpointFinding {
  const ok = c.cp.hash === hash;
  return { file: c.file, seq: c.cp.seq, time: c.cp.time, ok, reason: ok ? null : `checkpoint #${c.cp.seq} does not match event ${c.cp.seq}: the ledger was rewritten since it was signed` };
}

/** A checkpoint whose sequence number the file does not hold (the genesis, #0, always matches its hash). */
function notHeld(c: { file: string; cp: ParsedCheckpoint }): CheckpointFinding {
  const reason = c.cp.seq === 0 && c.cp.hash === GENESIS_HASH ? null : `checkpoint #${c.cp.seq} names an event this export does not hold`;
  return { file: c.file, seq: c.cp.seq, time: c.cp.time, ok: reason === null, reason };
}

export type VerifyFileOptions = { checkpoints?: { file: string; text: string }[]; key?: string; parallel?: ParallelOptions };

/**
 * Verifies an export and, when given, checkpoints against it: each must be signed by the key and
 * name an event of this file's chain with exactly that hash. Throws (a usage error) only for a
 * key or checkpoint that cannot be read at all; a broken file is a result, not an exception.
 */
export async function verifyExportFile(path: string, o: VerifyFileOptions = {}): Promise<FileVerifyResult> {
  const key = o.key === undefined ? null : readOr('key', () => readVerifierKey(o.key!), (m) => m);
  const cps = (o.checkpoints ?? []).map((c) => ({ file: c.file, cp: readOr('checkpoint', () => parseCheckpoint(c.text), (m) => `${c.file} is not a checkpoint: ${m}`) }));
  if (cps.length > 0 && !key) throw badRequest('checking a checkpoint needs the public key it was signed with: --key FILE (GET /api/audit/checkpoint-key)', 'key');

  const res: FileVerifyResult = { ok: false, organization: null, complete: false, checked: 0, head: null, firstBrokenSeq: null, line: null, reason: null, checkpoints: [] };
  const fail = (reason: string, seq: number | null, line: number | null): FileVerifyResult => ({ ...res, ok: false, reason, firstBrokenSeq: seq, line });

  const last = await lastLine(path);
  if (last === null) return fail('the file is empty: an export always ends with its trailer', null, null);
  const tr = parseTrailer(last);
  if (!tr) return fail('there is no trailer: the file ends with an event or a cut line, so its tail was cut off', null, null);
  if (tr.format !== EXPORT_FORMAT) return fail(`the trailer's format is "${String(tr.format)}", not ${EXPORT_FORMAT}`, null, null);
  if (!tr.organization || typeof tr.organization.id !== 'string' || !tr.head || typeof tr.head.seq !== 'number' || typeof tr.head.hash !== 'string') {
    return fail('the trailer does not name its organisation and head', null, null);
  }
  res.organization = tr.organization;
  res.complete = tr.complete === true;
  res.head = tr.head;
  const orgId = tr.organization.id;

  // Checkpoints are judged by what they sign first; whether they lie on the chain is found on the walk.
  const wanted = new Map<number, { file: string; cp: ParsedCheckpoint }[]>();
  for (const c of cps) {
    const signed = checkpointSignedBy(c.cp, { name: key!.name ?? c.cp.signatures[0]!.name, publicKey: key!.publicKey });
    const base = { file: c.file, seq: c.cp.seq, time: c.cp.time };
    if (!signed) res.checkpoints.push({ ...base, ok: false, reason: `checkpoint ${c.file}: the signature does not verify with this key` });
    else if (!c.cp.origin.endsWith(`/${orgId}`)) res.checkpoints.push({ ...base, ok: false, reason: `checkpoint ${c.file} is of the ledger "${c.cp.origin}", not of organisation ${orgId}` });
    else if (res.complete && c.cp.seq > tr.head.seq) {
      res.checkpoints.push({ ...base, ok: false, reason: `checkpoint at #${c.cp.seq} is beyond this export's head #${tr.head.seq}: events after #${tr.head.seq} were dropped, or the export is older than the checkpoint` });
    } else wanted.set(c.cp.seq, [...(wanted.get(c.cp.seq) ?? []), c]);
  }

  const finish = (r: FileVerifyResult): FileVerifyResult => {
    r.checkpoints.sort((a, b) => a.seq - b.seq);
    const badCp = r.checkpoints.find((c) => !c.ok);
    return badCp ? { ...r, ok: false, reason: badCp.reason, firstBrokenSeq: null, line: null } : { ...r, ok: true };
  };
  if (res.complete) {
    const quick = await soundInParallel(path, tr, [...wanted.keys()], o.parallel);
    if (quick) {
      res.checked = quick.events;
      for (const [seq, list] of wanted) {
        const hash = quick.found.get(seq);
        for (const c of list) res.checkpoints.push(hash === undefined ? notHeld(c) : onChain(c, hash));
      }
      return finish(res);
    }
  }

  let expected = tr.head.seq;
  let above: { seq: number; prevHash: string; line: number } | null = null;
  let trailerAt: number | null = null;
  for await (const batch of jsonLines(path)) for (const l of batch) {
    if (trailerAt !== null) return fail(`line ${l.no} comes after the trailer (line ${trailerAt}): the trailer must be the last line`, null, l.no);
    if (!('value' in l)) return fail(`line ${l.no} is not JSON: the file was cut or edited`, null, l.no);
    if ('trailer' in l.value) {
      trailerAt = l.no;
      continue;
    }
    const e = l.value as Omit<AuditEvent, 'orgId'>;
    const hash = e.hash;
    let recomputed: string;
    try {
      recomputed = hashEventOf(e, orgId);
    } catch {
      return fail(`line ${l.no} is not an audit event`, null, l.no);
    }
    res.checked += 1;
    if (res.complete) {
      if (e.seq !== expected) {
        if (expected < 1) return fail(`line ${l.no} holds event ${String(e.seq)} after event 1: the chain has nothing below 1`, e.seq, l.no);
        const at = typeof e.seq === 'number' && e.seq < expected ? await lineOfSeq(path, expected) : null;
        return at !== null
          ? fail(`event ${expected} is out of order: line ${l.no} holds event ${e.seq} where event ${expected} belongs (event ${expected} is on line ${at})`, expected, l.no)
          : fail(`event ${expected} is missing (line ${l.no} holds event ${String(e.seq)})`, expected, l.no);
      }
      expected -= 1;
    }
    // A member the ledger never writes is not covered by the hash: an addition is an edit too.
    if (Object.keys(e).length !== EVENT_MEMBERS) return fail(`event ${e.seq} was altered (line ${l.no}): it has members an audit event does not have`, e.seq, l.no);
    if (recomputed !== hash) return fail(`event ${e.seq} was altered (line ${l.no}): its content no longer matches its hash`, e.seq, l.no);
    if (res.complete) {
      if (above === null && hash !== tr.head.hash) return fail(`the trailer's head does not match event ${e.seq}: the newest events were replaced or the trailer edited`, e.seq, l.no);
      if (above !== null && above.prevHash !== hash) return fail(`event ${above.seq} does not link to event ${e.seq} (line ${above.line})`, above.seq, above.line);
    } else if (above !== null && above.seq === e.seq + 1 && above.prevHash !== hash) {
      return fail(`event ${above.seq} does not link to event ${e.seq} (line ${above.line})`, above.seq, above.line);
    }
    for (const c of wanted.get(e.seq) ?? []) res.checkpoints.push(onChain(c, hash));
    wanted.delete(e.seq);
    above = { seq: e.seq, prevHash: e.prevHash, line: l.no };
  }
  if (res.complete) {
    if (expected >= 1) return fail(expected === tr.head.seq ? `events 1…${expected} are missing: the file holds no event` : `events 1…${expected} are missing from the oldest end`, expected, null);
    if (above && above.prevHash !== GENESIS_HASH) return fail('event 1 does not start the chain: it links to a hash instead of the genesis', 1, above.line);
    if (!above && tr.head.seq === 0 && tr.head.hash !== GENESIS_HASH) return fail('the trailer names an empty ledger with a head hash other than the genesis', 0, null);
    if (res.checked !== tr.events) return fail(`the trailer counts ${tr.events} events but the file holds ${res.checked}`, null, null);
  }
  for (const list of wanted.values()) for (const c of list) res.checkpoints.push(notHeld(c));
  return finish(res);
}
