import { createHash, timingSafeEqual } from 'node:crypto';
import { randomAlnum, randomSecret } from '../ids.js';

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** API tokens look like clt_<8-character id>_<43-character secret>. */
export const API_TOKEN_PATTERN = /^clt_([A-Za-z0-9]{8})_([A-Za-z0-9_-]{43})$/;

export type GeneratedToken = { id: string; value: string; hash: string };

export function generateApiToken(): GeneratedToken {
  const id = randomAlnum(8);
  const value = `clt_${id}_${randomSecret()}`;
  return { id, value, hash: sha256Hex(value) };
}

/** The id and hash of a presented token, or null when it is not token-shaped. */
export function parseApiToken(value: string): { id: string; hash: string } | null {
  const m = API_TOKEN_PATTERN.exec(value);
  return m ? { id: m[1]!, hash: sha256Hex(value) } : null;
}
