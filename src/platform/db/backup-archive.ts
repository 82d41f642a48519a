import { createHash } from 'node:crypto';

/**
 * The backup file: a plain POSIX tar (ustar) of two members, so `tar -tvf` lists it and
 * `tar -xOf FILE manifest.json` shows what it holds without changeledger:
 *
 *   manifest.json    what the backup is (format, versions, schema level, time, each chain's head)
 *   pgdata.tar.gz    the embedded database's data directory as PGlite dumps it (gzip)
 *
 * The manifest carries the payload's size and SHA-256, so a truncated or damaged file is named as
 * such before anything is restored.
 */

export const BACKUP_FORMAT = 'changeledger-backup';
/** Raised when the layout or the manifest changes incompatibly; a reader refuses a newer one. */
export const BACKUP_FORMAT_VERSION = 1;
export const MANIFEST_NAME = 'manifest.json';
export const PAYLOAD_NAME = 'pgdata.tar.gz';
const BLOCK = 512;

export type BackupOrganization = { id: string; slug: string; seq: number; hash: string };
export type BackupManifest = {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  productVersion: string;
  /** The highest migration applied in the backed-up database. */
  schemaVersion: number;
  engine: 'pglite';
  /** `SHOW server_version` of the embedded PostgreSQL. */
  postgresVersion: string;
  createdAt: string;
  /** Where it came from, for people: the data directory and which process made the snapshot. */
  source: { dataDir: string; madeBy: 'server' | 'command line'; pid: number };
  /**
   * A one-way fingerprint of the data key the sealed secrets were sealed with (never the key), or
   * null when none was in use; restore compares it with the key the target will use.
   */
  keyFingerprint: string | null;
  /** Each organisation's audit digest (head sequence and hash) in the snapshot itself. */
  organizations: BackupOrganization[];
  payload: { name: typeof PAYLOAD_NAME; bytes: number; sha256: string };
};

/** The file is not a backup this version can restore; the message says why in plain words. */
export class BackupFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupFileError';
  }
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function header(name: string, size: number, mtime: Date): Buffer {
  const h = Buffer.alloc(BLOCK);
  const put = (text: string, at: number, len: number) => h.write(text, at, len, 'ascii');
  const octal = (n: number, len: number) => n.toString(8).padStart(len - 1, '0');
  put(name, 0, 100);
  put(octal(0o600, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(size, 12), 124, 12);
  put(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 12);
  put('        ', 148, 8);
  put('0', 156, 1);
  put('ustar\u000000', 257, 8);
  let sum = 0;
  for (const b of h) sum += b;
  put(`${octal(sum, 7)}\u0000`, 148, 8);
  return h;
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** The whole backup file: manifest first, so a reader learns what it holds from the first blocks. */
export function packBackup(manifest: BackupManifest, payload: Uint8Array): Buffer {
  const json = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  const at = new Date(manifest.createdAt);
  return Buffer.concat([
    header(MANIFEST_NAME, json.length, at), json, padding(json.length),
    header(PAYLOAD_NAME, payload.length, at), payload, padding(payload.length),
    Buffer.alloc(2 * BLOCK),
  ]);
}

type Member = { name: string; data: Buffer };

function readMember(file: Buffer, at: number, what: string): Member | null {
  if (at + BLOCK > file.length) throw new BackupFileError(`the file ends early: it is cut off before ${what} (truncated?)`);
  const h = file.subarray(at, at + BLOCK);
  if (h.every((b) => b === 0)) return null;
  if (h.toString('ascii', 257, 262) !== 'ustar') return null;
  const name = h.toString('ascii', 0, 100).replace(/\0.*$/s, '');
  const size = parseInt(h.toString('ascii', 124, 136).replace(/\0.*$/s, '').trim(), 8);
  if (!Number.isFinite(size)) return null;
  if (at + BLOCK + size > file.length) throw new BackupFileError(`the file ends early: ${name} should hold ${size} bytes but only ${file.length - at - BLOCK} are there (truncated?)`);
  return { name, data: file.subarray(at + BLOCK, at + BLOCK + size) };
}

/**
 * Reads and checks a backup file: that it is one, of a format this version knows, complete and
 * undamaged. Answers the manifest and the payload (the data directory's gzipped tarball).
 */
export function unpackBackup(file: Buffer): { manifest: BackupManifest; payload: Buffer } {
  const notBackup = new BackupFileError('this is not a changeledger backup (it does not start with the manifest that `changeledger backup` writes)');
  if (file.length === 0) throw new BackupFileError('the file is empty');
  if (file.length < BLOCK) {
    if (file.toString('latin1').startsWith(MANIFEST_NAME)) throw new BackupFileError('the file ends early: it is cut off inside the first block (truncated?)');
    throw notBackup;
  }
  const first = readMember(file, 0, 'the manifest');
  if (!first || first.name !== MANIFEST_NAME) throw notBackup;
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(first.data.toString('utf8')) as BackupManifest;
  } catch {
    throw new BackupFileError('the manifest inside the file is not readable JSON: the file is damaged');
  }
  if (manifest?.format !== BACKUP_FORMAT || typeof manifest.formatVersion !== 'number') throw notBackup;
  if (manifest.formatVersion > BACKUP_FORMAT_VERSION) {
    throw new BackupFileError(`the backup is in format ${manifest.formatVersion}, made by changeledger ${manifest.productVersion}; this changeledger reads format ${BACKUP_FORMAT_VERSION} and older: restore it with changeledger ${manifest.productVersion} or newer`);
  }
  const offset = BLOCK + first.data.length + padding(first.data.length).length;
  const second = readMember(file, offset, 'the database');
  if (!second || second.name !== PAYLOAD_NAME) throw new BackupFileError(`the file ends early or is damaged: ${PAYLOAD_NAME} does not follow the manifest (truncated?)`);
  if (second.data.length !== manifest.payload.bytes) {
    throw new BackupFileError(`the database inside the file has ${second.data.length} bytes where the manifest says ${manifest.payload.bytes}: the file is damaged`);
  }
  if (sha256(second.data) !== manifest.payload.sha256) throw new BackupFileError('the database inside the file does not match the checksum in its manifest: the file is damaged');
  return { manifest, payload: second.data };
}
