import { randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

/** Sortable ids with a readable prefix, e.g. `usr_0194…`. */
export function newId(prefix: string): string {
  return `${prefix}_${uuidv7().replaceAll('-', '')}`;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Uniformly random alphanumeric string (rejection sampling, no modulo bias). */
export function randomAlnum(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248) out += ALNUM[b % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** 32 random bytes as base64url: 43 characters. */
export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}
