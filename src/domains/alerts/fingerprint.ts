/**
 * The fingerprint Prometheus and Alertmanager give a label set (prometheus/common model,
 * LabelSet.Fingerprint): 64-bit FNV-1a over the label names in byte order, each name and each value
 * followed by the separator byte 0xff, printed as 16 hex digits. One alert is one fingerprint,
 * whether it came through the webhook (which carries it) or the API v2 shape (which does not).
 */

const OFFSET = 0xcbf29ce484222325n;
const PRIME = 0x100000001b3n;
const MASK = 0xffffffffffffffffn;
const SEPARATOR = 0xff;
const encoder = new TextEncoder();

/** Go sorts label names as byte strings; compare UTF-8 bytes, not UTF-16 units. */
function byteOrder(a: string, b: string): number {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

export function labelSetFingerprint(labels: Readonly<Record<string, string>>): string {
  const names = Object.keys(labels).sort(byteOrder);
  let h = OFFSET;
  const add = (byte: number) => {
    h ^= BigInt(byte);
    h = (h * PRIME) & MASK;
  };
  for (const name of names) {
    for (const b of encoder.encode(name)) add(b);
    add(SEPARATOR);
    for (const b of encoder.encode(labels[name]!)) add(b);
    add(SEPARATOR);
  }
  return h.toString(16).padStart(16, '0');
}
