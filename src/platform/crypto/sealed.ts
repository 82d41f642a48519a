import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Secrets we must use again later (a channel's webhook URL, a signing secret) are sealed with
 * AES-256-GCM under a data key that never enters the database: `v1.<iv>.<tag>.<ciphertext>`.
 */
export type Sealer = { seal(plain: string): string; open(sealed: string): string };

export function createSealer(key: Buffer): Sealer {
  if (key.length !== 32) throw new Error('the data key must be 32 bytes');
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return ['v1', iv.toString('base64url'), c.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
    },
    open(sealed) {
      const [v, iv, tag, data] = sealed.split('.');
      if (v !== 'v1' || !iv || !tag || data === undefined) throw new Error('not a sealed value');
      const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      d.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([d.update(Buffer.from(data, 'base64url')), d.final()]).toString('utf8');
    },
  };
}

/**
 * Opens a sealed value, or answers null when it cannot be opened (sealed under another data key,
 * or damaged): the caller says what that means instead of failing with a 500.
 */
export function openOrNull(sealer: Sealer, sealed: string | null): string | null {
  if (!sealed) return null;
  try {
    return sealer.open(sealed);
  } catch {
    return null;
  }
}

/** A sealer whose key is read on first use: commands that never seal anything never touch the key. */
export function lazySealer(loadKey: () => Buffer): Sealer {
  let inner: Sealer | null = null;
  const get = () => (inner ??= createSealer(loadKey()));
  return { seal: (plain) => get().seal(plain), open: (sealed) => get().open(sealed) };
}

/** CHANGELEDGER_SECRET_KEY (base64, 32 bytes), else a key file made once with mode 0600. */
export function loadDataKey(env: NodeJS.ProcessEnv, keyFile: string): Buffer {
  if (env.CHANGELEDGER_SECRET_KEY) {
    const k = Buffer.from(env.CHANGELEDGER_SECRET_KEY, 'base64');
    if (k.length !== 32) throw new Error('CHANGELEDGER_SECRET_KEY must be 32 bytes in base64 (openssl rand -base64 32)');
    return k;
  }
  if (existsSync(keyFile)) return Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64');
  mkdirSync(dirname(keyFile), { recursive: true });
  const k = randomBytes(32);
  writeFileSync(keyFile, `${k.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  return k;
}
