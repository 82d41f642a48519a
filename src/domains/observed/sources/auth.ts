import { createHash, timingSafeEqual } from 'node:crypto';
import type { IntakeRequest } from '../observed-types.js';

/** One header's value (the first when repeated). */
export function header(req: IntakeRequest, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/** Equal in constant time whatever the lengths (both sides hashed first). */
export function sameSecret(given: string | undefined, secret: string): boolean {
  if (given === undefined || given === '') return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(secret).digest();
  return timingSafeEqual(a, b);
}

/** `Authorization: Bearer <secret>`: what Argo CD, the K8s audit kubeconfig, EventBridge and generic senders send. */
export async function bearerMatches(req: IntakeRequest, secret: string): Promise<boolean> {
  const m = /^Bearer\s+(.+)$/i.exec(header(req, 'authorization') ?? '');
  return sameSecret(m?.[1]?.trim(), secret);
}
