/**
 * The fingerprint Prometheus and Alertmanager give a label set (prometheus/common model,
 * LabelSet.Fingerprint): 64-bit FNV-1a over the label names in byte order, each name and each value
 * followed by the separator byte 0xff, printed as 16 hex digits. One alert is one fingerprint,
 * whether it came through the webhook (which carries it) or the API v2 shape (which does not).
 *
 * The 64-bit state is kept in four 16-bit limbs (BigInt arithmetic costs ~10x more per byte, and
 * intake fingerprints every alert of every batch).
 */

const SEPARATOR = 0xff;
const encoder = new TextEncoder();
const ASCII = /^[\x00-\x7f]*$/;

/** Go sorts label names as byte strings: for ASCII that is JavaScript's order, otherwise compare UTF-8 bytes. */
function byteOrder(a: string, b: string): number {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

export function labelSetFingerprint(labels: Readonly<Record<string, string>>): string {
  const names = Object.keys(labels);
  if (names.every((n) => ASCII.test(n))) names.sort();
  else names.sort(byteOrder);
  // The offset basis 0xcbf29ce484222325, low limb first.
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  const add = (byte: number) => {
    h0 ^= byte;
    // × the FNV prime 0x100000001b3 = 2^40 + 0x1b3, keeping the low 64 bits.
    let t0 = h0 * 0x1b3;
    let t1 = h1 * 0x1b3;
    let t2 = h2 * 0x1b3 + (h0 << 8);
    let t3 = h3 * 0x1b3 + (h1 << 8);
    t1 += t0 >>> 16;
    t0 &= 0xffff;
    t2 += t1 >>> 16;
    t1 &= 0xffff;
    t3 = (t3 + (t2 >>> 16)) & 0xffff;
    t2 &= 0xffff;
    h0 = t0;
    h1 = t1;
    h2 = t2;
    h3 = t3;
  };
  const addText = (s: string) => {
    if (ASCII.test(s)) for (let i = 0; i < s.length; i++) add(s.charCodeAt(i));
    else for (const b of encoder.encode(s)) add(b);
  };
  for (const name of names) {
    addText(name);
    add(SEPARATOR);
    addText(labels[name]!);
    add(SEPARATOR);
  }
  const hex = (n: number) => n.toString(16).padStart(4, '0');
  return hex(h3) + hex(h2) + hex(h1) + hex(h0);
}
