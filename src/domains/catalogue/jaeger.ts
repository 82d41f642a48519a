import { serviceKey, type Entity, type Estate, type Link } from './entity.js';

/** `ignored` counts the pairs that made no link: a service calling itself. */
export type JaegerResult = { ok: true; estate: Estate; ignored: number } | { ok: false; error: string; field: string };

const MAX_NAME = 300;

/**
 * The JSON answer of Jaeger's `GET /api/dependencies?endTs=…&lookback=…`
 * (`{data: [{parent, child, callCount}], total, limit, offset, errors}`, or the bare list) → a
 * service per name and a calls link parent → child. Links carry no count, so duplicate pairs (from
 * several storage partitions) are merged; a self-call says nothing about the graph and is skipped,
 * though its service is kept.
 */
export function fromJaegerDependencies(doc: unknown): JaegerResult {
  let items: unknown[];
  let prefix: string;
  if (Array.isArray(doc)) {
    items = doc;
    prefix = '';
  } else if (doc && typeof doc === 'object') {
    const d = doc as { data?: unknown; errors?: unknown };
    // Jaeger answers a failed query with HTTP 500 and the reason in errors; importing it as an
    // empty graph would mark every service stale.
    if (Array.isArray(d.errors) && d.errors.length > 0) {
      const first = d.errors[0] as { msg?: unknown } | null;
      const msg = first && typeof first.msg === 'string' ? first.msg : 'unknown error';
      return { ok: false, error: `the Jaeger answer is an error: ${msg}`, field: 'errors' };
    }
    if (!Array.isArray(d.data)) return { ok: false, error: 'expected the JSON of Jaeger /api/dependencies: an object with data, a list of {parent, child, callCount}', field: 'data' };
    items = d.data;
    prefix = 'data.';
  } else {
    return { ok: false, error: 'expected the JSON of Jaeger /api/dependencies: an object with data, a list of {parent, child, callCount}', field: 'data' };
  }

  const entities = new Map<string, Entity>();
  const links = new Map<string, Link>();
  let ignored = 0;
  const service = (name: string) => {
    const key = serviceKey(name);
    if (!entities.has(key)) entities.set(key, { key, kind: 'service', name });
    return key;
  };
  for (const [i, raw] of items.entries()) {
    const at = `${prefix}${i}`;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, error: `${at} must be an object with parent, child and callCount`, field: at };
    const l = raw as { parent?: unknown; child?: unknown; callCount?: unknown };
    const names: string[] = [];
    for (const side of ['parent', 'child'] as const) {
      const v = l[side];
      if (typeof v !== 'string' || v.trim() === '' || v.trim().length > MAX_NAME) return { ok: false, error: `${at}.${side} must be a service name of 1 to ${MAX_NAME} characters`, field: `${at}.${side}` };
      names.push(v.trim());
    }
    const c = l.callCount;
    if (c !== undefined && c !== null && !(typeof c === 'number' && Number.isInteger(c) && c >= 0)) return { ok: false, error: `${at}.callCount must be a whole number of calls`, field: `${at}.callCount` };
    const [parent, child] = names as [string, string];
    const from = service(parent);
    const to = service(child);
    if (from === to) {
      ignored += 1;
      continue;
    }
    const id = `${from}\u0000${to}\u0000calls`;
    if (!links.has(id)) links.set(id, { from, to, via: 'calls' });
  }
  return { ok: true, estate: { entities: [...entities.values()], links: [...links.values()] }, ignored };
}
