import { createReadStream } from 'node:fs';
import { hashEventOf, type AuditEvent } from './audit-event.js';

/**
 * Reading an exported ledger: its lines, and the check of one byte range of it that the parallel
 * verification runs in a worker per core. The range check only answers "sound" or "not sound";
 * the exact words for what is broken, and where, come from the one sequential walk in
 * ledger-file.ts, which is run again whenever any range is not sound.
 */

/** seq, occurredAt, actor, action, target, correlationId, requestId, source, data, schemaVersion, prevHash, hash. */
export const EVENT_MEMBERS = 12;

export type Line = { no: number; value: Record<string, unknown> } | { no: number; bad: true };

/** Bytes [start, end) of a file; the whole file when left out. */
export type ByteRange = { start: number; end: number };

/**
 * The file's non-empty lines, numbered from 1 (from the range's start) and parsed, a chunk's worth
 * at a time: one await per megabyte instead of one per line, which is most of what reading a
 * million events costs.
 */
export async function* jsonLines(path: string, range?: ByteRange): AsyncGenerator<Line[]> {
  let no = 0;
  let rest: Buffer | null = null;
  const parse = (buf: Buffer, start: number, end: number): Line | null => {
    no += 1;
    if (end > start && buf[end - 1] === 0x0d) end -= 1;
    if (start === end) return null;
    const text = buf.toString('utf8', start, end);
    if (buf[start] !== 0x7b && text.trim() === '') return null;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { no, bad: true };
    }
    return value === null || typeof value !== 'object' || Array.isArray(value) ? { no, bad: true } : { no, value: value as Record<string, unknown> };
  };
  if (range && range.end <= range.start) return;
  const stream = createReadStream(path, { highWaterMark: 1 << 20, ...(range ? { start: range.start, end: range.end - 1 } : {}) });
  for await (const chunk of stream) {
    const buf = chunk as Buffer;
    const batch: Line[] = [];
    let start = 0;
    if (rest) {
      // Only the line that straddles two chunks is copied.
      const nl = buf.indexOf(0x0a);
      if (nl < 0) {
        rest = Buffer.concat([rest, buf]);
        continue;
      }
      const joined = Buffer.concat([rest, buf.subarray(0, nl)]);
      const l = parse(joined, 0, joined.length);
      if (l) batch.push(l);
      start = nl + 1;
    }
    for (let nl = buf.indexOf(0x0a, start); nl >= 0; nl = buf.indexOf(0x0a, start)) {
      const l = parse(buf, start, nl);
      if (l) batch.push(l);
      start = nl + 1;
    }
    rest = start < buf.length ? buf.subarray(start) : null;
    yield batch;
  }
  const last = rest ? parse(rest, 0, rest.length) : null;
  if (last) yield [last];
}

export type RangeWork = { path: string; range: ByteRange; orgId: string; wanted: number[] };

/** What one range of a complete export holds, when every line in it is sound. */
export type RangeSummary =
  | { sound: false }
  | {
    sound: true;
    events: number;
    /** The range's first (newest) event, and its last (oldest) with the hash it links to. */
    first: { seq: number; hash: string } | null;
    last: { seq: number; prevHash: string } | null;
    /** A trailer line was read, and nothing came after it in this range. */
    trailer: boolean;
    /** The hashes of the wanted sequence numbers (checkpoints) found in this range. */
    found: [number, string][];
  };

/**
 * Checks one range of a complete export: every line an event of exactly its members, whose
 * content matches its hash, one lower in sequence than the line above it and linked to it.
 * Whether the ranges join up (and the trailer's head, count and the genesis) is for the caller.
 */
export async function checkRange(w: RangeWork): Promise<RangeSummary> {
  const wanted = new Set(w.wanted);
  const found: [number, string][] = [];
  let first: { seq: number; hash: string } | null = null;
  let above: { seq: number; prevHash: string } | null = null;
  let events = 0;
  let trailer = false;
  for await (const batch of jsonLines(w.path, w.range)) {
    for (const l of batch) {
      if (trailer || !('value' in l)) return { sound: false };
      if ('trailer' in l.value) {
        trailer = true;
        continue;
      }
      const e = l.value as Omit<AuditEvent, 'orgId'>;
      if (Object.keys(e).length !== EVENT_MEMBERS || typeof e.seq !== 'number' || typeof e.hash !== 'string' || typeof e.prevHash !== 'string') return { sound: false };
      let recomputed: string;
      try {
        recomputed = hashEventOf(e, w.orgId);
      } catch {
        return { sound: false };
      }
      if (recomputed !== e.hash) return { sound: false };
      if (above !== null && (above.seq - 1 !== e.seq || above.prevHash !== e.hash)) return { sound: false };
      if (first === null) first = { seq: e.seq, hash: e.hash };
      if (wanted.has(e.seq)) found.push([e.seq, e.hash]);
      above = { seq: e.seq, prevHash: e.prevHash };
      events += 1;
    }
  }
  return { sound: true, events, first, last: above, trailer, found };
}
