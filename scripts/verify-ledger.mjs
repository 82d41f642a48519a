// Verifies a ledger written by `changeledger audit export`, with nothing but Node.js (>= 20.19):
//   node scripts/verify-ledger.mjs ledger.ndjson [--checkpoint cp.txt ...] [--key checkpoint-key.pem]
// Exit 0: intact. 1: broken (one line names the first problem). 2: usage error.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { closeSync, createReadStream, openSync, readFileSync, readSync, statSync } from 'node:fs';
import process from 'node:process';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

const GENESIS = '0'.repeat(64);
const USAGE = 'usage: node scripts/verify-ledger.mjs ledger.ndjson [--checkpoint cp.txt ...] [--key checkpoint-key.pem]';
const broken = (message) => Object.assign(new Error(message), { exit: 1 });
const usage = (message) => Object.assign(new Error(`${message}\n${USAGE}`), { exit: 2 });
const attempt = (run, otherwise) => { try { return run(); } catch (err) { return otherwise(err); } };
const sha256 = (...parts) => parts.reduce((h, part) => h.update(part), createHash('sha256')).digest();

// Canonical JSON, as the product hashes it: keys sorted, undefined members dropped, no whitespace.
const canonical = (v) => {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return `[${v.map((x) => canonical(x)).join(',')}]`;
  if (typeof v !== 'object') return JSON.stringify(v);
  const members = Object.entries(v).filter(([, x]) => x !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${members.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
};

// An event's hash: SHA-256 of the previous hash, a newline, and the canonical JSON of its body.
const hashOf = (e, orgId) => sha256(e.prevHash, '\n', canonical({ orgId, seq: e.seq, occurredAt: e.occurredAt, actor: e.actor, action: e.action,
  target: e.target, correlationId: e.correlationId, requestId: e.requestId, source: e.source, data: e.data, schemaVersion: e.schemaVersion })).toString('hex');

// The file's lines, numbered from 1 and streamed: an export may hold a million events.
async function* lines(file) {
  const input = createReadStream(file, { encoding: 'utf8' });
  let n = 0;
  try { for await (const text of createInterface({ input, crlfDelay: Infinity })) yield [++n, text]; } finally { input.destroy(); }
}

// The last non-empty line, read backwards from the end: the trailer names the org every hash covers.
function lastLine(file) {
  const fd = openSync(file, 'r');
  let tail = Buffer.alloc(0), text = '';
  for (let end = statSync(file).size; end > 0 && !text.includes('\n');) {
    const chunk = Buffer.alloc(Math.min(65536, end));
    end -= readSync(fd, chunk, 0, chunk.length, end - chunk.length);
    text = (tail = Buffer.concat([chunk, tail])).toString('utf8').trimEnd();
  }
  closeSync(fd);
  return text.slice(text.lastIndexOf('\n') + 1);
}

// A checkpoint, a C2SP signed note: origin, seq, base64 head hash, "time …" and other lines, a blank
// line, then "— <key name> <base64(4-byte key id ‖ Ed25519 signature)>" lines over the text above.
function readCheckpoint(file, key) {
  const text = readFileSync(file, 'utf8'), split = text.indexOf('\n\n'), note = text.slice(0, split + 1);
  const [origin, seq, root, ...ext] = note.slice(0, -1).split('\n');
  const hash = Buffer.from(root ?? '', 'base64');
  if (split < 0 || !/^\d+$/.test(seq ?? '') || hash.length !== 32 || hash.toString('base64') !== root) throw broken(`checkpoint ${file} is not a signed checkpoint note`);
  const raw = key.export({ format: 'der', type: 'spki' }).subarray(-32);
  const signed = text.slice(split + 2).split('\n').some((line) => {
    const [, name, b64] = /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/.exec(line) ?? [];
    const sig = Buffer.from(b64 ?? '', 'base64'), keyId = sha256(`${name}\n`, Buffer.from([1]), raw).subarray(0, 4);
    return sig.length === 68 && keyId.equals(sig.subarray(0, 4)) && verify(null, Buffer.from(note), key, sig.subarray(4));
  });
  return { file, origin, seq: Number(seq), hash: hash.toString('hex'), time: ext.find((l) => l.startsWith('time '))?.slice(5) ?? '?', signed };
}

// A line holds the wrong event: the expected one is out of order if it comes later, else missing.
async function misplaced(file, at, seq, expected) {
  if (expected < 1) return `line ${at} holds event ${seq} after event 1: nothing comes before event 1`;
  for await (const [n, text] of lines(file)) {
    if (n > at && attempt(() => JSON.parse(text)?.seq, () => null) === expected) return `event ${expected} is out of order: line ${at} holds event ${seq} where event ${expected} belongs`;
  }
  return `event ${expected} is missing (line ${at} holds event ${seq})`;
}

async function main() {
  const options = { checkpoint: { type: 'string', multiple: true, default: [] }, key: { type: 'string' } };
  const { positionals: [file, ...extra], values: { checkpoint: cpFiles, key: keyFile } } = attempt(() => parseArgs({ allowPositionals: true, options }), (err) => { throw usage(err.message); });
  if (!file || extra.length) throw usage('give exactly one ledger file');
  for (const f of [file, ...cpFiles, ...(keyFile ? [keyFile] : [])]) if (!statSync(f, { throwIfNoEntry: false })?.isFile()) throw usage(`cannot read ${f}: no such file`);
  if (cpFiles.length && !keyFile) throw usage('--checkpoint needs --key FILE: the Ed25519 public key (PEM) the checkpoints were signed with');
  const key = keyFile ? attempt(() => createPublicKey(readFileSync(keyFile)), () => null) : null;
  if (keyFile && key?.asymmetricKeyType !== 'ed25519') throw usage(`${keyFile} is not an Ed25519 public key in PEM`);
  const cps = cpFiles.map((f) => readCheckpoint(f, key)).sort((a, b) => a.seq - b.seq);

  const trailer = attempt(() => JSON.parse(lastLine(file))?.trailer ?? null, () => null); // if none, the pass says where the file ends
  if (trailer && trailer.format !== 'changeledger.audit-export.v1') throw broken(`the trailer's format is "${trailer.format}", not changeledger.audit-export.v1`);
  const { organization: org, head } = trailer ?? {}, complete = trailer?.complete === true;
  if (trailer && (typeof org?.id !== 'string' || !Number.isInteger(head?.seq) || typeof head.hash !== 'string')) throw broken('the trailer does not name its organisation and head');
  const hashes = new Map(cps.map((c) => [c.seq, c.seq === 0 ? GENESIS : undefined])); // the events checkpoints name

  // One pass, newest first: each line is JSON, holds the expected seq, matches its hash, and is the hash
  // the line above links to. Without a trailer (no org id to hash with) only the JSON is checked.
  let expected = head?.seq, above = null, count = 0, last = 0, trailerAt = 0;
  for await (const [n, text] of lines(file)) {
    if (!text.trim()) continue;
    if (trailerAt) throw broken(`line ${n} comes after the trailer (line ${trailerAt}): the trailer must be the last line`);
    const e = attempt(() => JSON.parse(text), () => { throw broken(`line ${n} is not JSON: the file was cut or edited`); });
    last = n;
    if (e?.trailer) trailerAt = n;
    if (e?.trailer || !trailer) continue;
    if (typeof e?.seq !== 'number' || typeof e.prevHash !== 'string' || typeof e.hash !== 'string') throw broken(`line ${n} is not an audit event`);
    if (complete && e.seq !== expected) throw broken(await misplaced(file, n, e.seq, expected));
    if (hashOf(e, org.id) !== e.hash) throw broken(`event ${e.seq} was altered (line ${n}): its content no longer matches its hash`);
    if (!above && e.seq === head.seq && e.hash !== head.hash) throw broken(`the trailer's head does not match event ${e.seq}`);
    if (above?.seq === e.seq + 1 && above.prevHash !== e.hash) throw broken(`event ${above.seq} does not link to event ${e.seq} (line ${above.line})`);
    if (hashes.has(e.seq)) hashes.set(e.seq, e.hash);
    [above, expected, count] = [{ seq: e.seq, prevHash: e.prevHash, line: n }, e.seq - 1, count + 1];
  }
  if (!trailer) throw broken(last ? `no trailer: the file ends at line ${last}, so its tail was cut off` : 'no trailer: the file is empty');
  if (complete && expected >= 1) throw broken(`events 1…${expected} are missing from the oldest end`);
  if (complete && above && above.prevHash !== GENESIS) throw broken(`event 1 does not link to the start of the chain (line ${above.line})`);
  if (complete && !above && head.hash !== GENESIS) throw broken("the trailer's head does not match an empty ledger (64 zeros)");
  if (count !== trailer.events) throw broken(`the trailer counts ${trailer.events} events, but the file holds ${count}`);

  // Checkpoints: signed with the key, of this organisation, within the export, and on this very chain.
  for (const c of cps) {
    if (!c.signed) throw broken(`checkpoint ${c.file}: the signature does not verify with this key`);
    if (!c.origin.endsWith(`/${org.id}`)) throw broken(`checkpoint ${c.file} is of the ledger "${c.origin}", not of organisation ${org.id}`);
    if (c.seq > head.seq) throw broken(`checkpoint at #${c.seq} is beyond this export's head #${head.seq}: events after ${head.seq} were dropped, or the export is older than the checkpoint`);
    if (hashes.get(c.seq) === undefined) throw broken(`checkpoint #${c.seq} names event ${c.seq}, which this filtered export does not hold`);
    if (hashes.get(c.seq) !== c.hash) throw broken(`checkpoint #${c.seq} does not match event ${c.seq}: the ledger was rewritten since it was signed`);
  }
  console.log(complete ? `${org.slug}: intact, ${count} events, head #${head.seq} ${head.hash}`
    : `${org.slug}: filtered export: each event matches its hash, but a filtered export cannot show that none is missing (${count} events)`);
  cps.forEach((c, i) => {
    console.log(`checkpoint #${c.seq} (time ${c.time}): ${complete ? 'on this chain' : `matches event ${c.seq}`}`);
    if (complete && i > 0) console.log(`checkpoint #${c.seq} extends checkpoint #${cps[i - 1].seq}: one unbroken chain runs through both`);
  });
}

main().catch((err) => { console.error(err.exit ? err.message : `verify-ledger: ${err.message}`); process.exitCode = err.exit ?? 1; });
