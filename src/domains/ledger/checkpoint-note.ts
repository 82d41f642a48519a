import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';

/**
 * Signed checkpoints of a ledger, in the C2SP formats (c2sp.org/tlog-checkpoint inside a
 * c2sp.org/signed-note): origin, size and root hash on three lines, our own extension lines
 * (organisation, time), a blank line, and one Ed25519 signature line. Our ledger is a hash chain,
 * not a Merkle tree, so the "root hash" is the chain's head hash and the "tree size" its sequence;
 * a later checkpoint is shown to extend an earlier one by walking the exported chain between
 * them, not by a consistency proof.
 */
export type Checkpoint = { origin: string; seq: number; hash: string; organisation: string; time: string };

export type CheckpointKey = { name: string; privateKey: KeyObject; publicKey: KeyObject };

/** The signature type byte of Ed25519 in a signed note. */
const ED25519 = 0x01;
const SIGNATURE_DASH = '\u2014 ';

/** The 32 raw bytes of an Ed25519 public key. */
export function rawPublicKey(key: KeyObject): Buffer {
  const x = key.export({ format: 'jwk' }).x;
  if (!x) throw new Error('not an Ed25519 public key');
  return Buffer.from(x, 'base64url');
}

/** A signed note's key id: the first four bytes of SHA-256(name, newline, type byte, public key). */
export function keyIdOf(name: string, publicKey: KeyObject): Buffer {
  return createHash('sha256').update(`${name}\n`).update(Buffer.from([ED25519])).update(rawPublicKey(publicKey)).digest().subarray(0, 4);
}

/** The verifier key as signed-note tools write it: `name+hex key id+base64(type byte ‖ public key)`. */
export function verifierKey(key: Pick<CheckpointKey, 'name' | 'publicKey'>): string {
  return `${key.name}+${keyIdOf(key.name, key.publicKey).toString('hex')}+${Buffer.concat([Buffer.from([ED25519]), rawPublicKey(key.publicKey)]).toString('base64')}`;
}

export function publicKeyPem(key: Pick<CheckpointKey, 'publicKey'>): string {
  return key.publicKey.export({ format: 'pem', type: 'spki' }).toString();
}

/** The signed text: every line before the blank line, each ending in a newline. */
export function checkpointBody(c: Checkpoint): string {
  return `${c.origin}\n${c.seq}\n${Buffer.from(c.hash, 'hex').toString('base64')}\norganisation ${c.organisation}\ntime ${c.time}\n`;
}

export function signCheckpoint(key: CheckpointKey, c: Checkpoint): string {
  const body = checkpointBody(c);
  const signature = sign(null, Buffer.from(body, 'utf8'), key.privateKey);
  return `${body}\n${SIGNATURE_DASH}${key.name} ${Buffer.concat([keyIdOf(key.name, key.publicKey), signature]).toString('base64')}\n`;
}

export type ParsedCheckpoint = Checkpoint & { body: string; signatures: { name: string; keyId: Buffer; signature: Buffer }[] };

/** Reads a checkpoint's text; throws a sentence naming what is wrong with it. */
export function parseCheckpoint(text: string): ParsedCheckpoint {
  const split = text.indexOf('\n\n');
  if (split < 0) throw new Error('it is not a signed note: there is no blank line before the signatures');
  const body = text.slice(0, split + 1);
  const lines = body.slice(0, -1).split('\n');
  const [origin, size, root, ...extensions] = lines;
  if (!origin || size === undefined || root === undefined) throw new Error('it is not a checkpoint: it needs an origin, a size and a hash line');
  if (!/^(0|[1-9]\d{0,15})$/.test(size)) throw new Error(`its second line "${size}" is not a sequence number`);
  const hash = Buffer.from(root, 'base64');
  if (hash.length !== 32 || hash.toString('base64') !== root) throw new Error('its third line is not the base64 of a 32-byte hash');
  const ext = (prefix: string) => extensions.find((l) => l.startsWith(`${prefix} `))?.slice(prefix.length + 1) ?? '';
  const signatures = text.slice(split + 2).split('\n').filter((l) => l !== '').map((line) => {
    const m = /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/.exec(line);
    const raw = m ? Buffer.from(m[2]!, 'base64') : null;
    if (!m || !raw || raw.length < 5) throw new Error(`"${line.slice(0, 60)}" is not a signature line`);
    return { name: m[1]!, keyId: raw.subarray(0, 4), signature: raw.subarray(4) };
  });
  if (signatures.length === 0) throw new Error('it carries no signature');
  return { origin, seq: Number(size), hash: hash.toString('hex'), organisation: ext('organisation'), time: ext('time'), body, signatures };
}

/** True when one of the note's signatures is this key's and verifies over its text. */
export function checkpointSignedBy(cp: ParsedCheckpoint, key: Pick<CheckpointKey, 'name' | 'publicKey'>): boolean {
  const id = keyIdOf(key.name, key.publicKey);
  return cp.signatures.some((s) => s.name === key.name && s.keyId.equals(id) && s.signature.length === 64 && verify(null, Buffer.from(cp.body, 'utf8'), key.publicKey, s.signature));
}

/**
 * A public key given to the verifier: a PEM (what /api/audit/checkpoint-key serves and openssl
 * reads) or a signed-note verifier key. A PEM carries no name, so the name is taken from the note.
 */
export function readVerifierKey(text: string): { name: string | null; publicKey: KeyObject } {
  const t = text.trim();
  if (t.startsWith('-----BEGIN')) {
    const publicKey = createPublicKey(t);
    if (publicKey.asymmetricKeyType !== 'ed25519') throw new Error(`the key is ${publicKey.asymmetricKeyType ?? 'not a public key'}, not Ed25519`);
    return { name: null, publicKey };
  }
  const m = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/=]+)$/.exec(t);
  const raw = m ? Buffer.from(m[3]!, 'base64') : null;
  if (!m || !raw || raw.length !== 33 || raw[0] !== ED25519) throw new Error('the key is neither a PEM public key nor an Ed25519 verifier key (name+id+base64)');
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.subarray(1).toString('base64url') }, format: 'jwk' });
  if (keyIdOf(m[1]!, publicKey).toString('hex') !== m[2]) throw new Error('the verifier key\'s id does not match its name and key');
  return { name: m[1]!, publicKey };
}

/** Reads an Ed25519 private key in PEM; `from` names where it came from in the refusal. */
export function checkpointKeyFromPem(pem: string, name: string, from: string): CheckpointKey {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch {
    throw new Error(`${from} is not a private key in PEM (make one with: openssl genpkey -algorithm ed25519)`);
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error(`${from} is a ${privateKey.asymmetricKeyType} key; checkpoints are signed with Ed25519 (openssl genpkey -algorithm ed25519)`);
  return { name, privateKey, publicKey: createPublicKey(privateKey) };
}

/** A new Ed25519 private key in PEM (PKCS #8). */
export function newCheckpointKeyPem(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}
