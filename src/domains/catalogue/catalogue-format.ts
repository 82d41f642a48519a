import { Type } from 'typebox';
import { parse as parseYaml } from 'yaml';
import { ENTITY_KINDS } from './entity.js';
import { isKind, TIERS, VIAS, type Entity, type Estate, type Link, type Tier, type Via } from './entity.js';

export const CATALOGUE_FORMAT = 'changeledger/catalogue/1';
export const MAX_ENTITIES = 200_000;
export const MAX_LINKS = 1_000_000;
export const MAX_SOURCES = 50_000;
export const MAX_SOURCE_ID = 200;

/** A monitoring source (a Prometheus job, an alert rule group, a monitor) and the keys it stands for. */
export type MonitorSourceInput = { id: string; name: string; services: string[]; entities: string[] };

export type ParseResult = { ok: true; estate: Estate; sources: MonitorSourceInput[]; source: string | null } | { ok: false; error: string; field: string };

const KEY = /^[a-z][a-z-]*:.{1,490}$/;
const sourceKey = { pattern: KEY.source };

/** The JSON Schema of the format, served at /api/catalog/format.schema.json for editors and CI checks. */
export const CATALOGUE_SCHEMA = Type.Object(
  {
    format: Type.Optional(Type.Literal(CATALOGUE_FORMAT)),
    source: Type.Optional(Type.String({ pattern: '^[\\w.:@/-]{1,100}$', description: 'What this file is (a CMDB export, a repository); entities it no longer lists are marked stale' })),
    entities: Type.Array(Type.Object({
      key: Type.String({ pattern: KEY.source, description: 'svc:<name>, ext:<host>, db:<instance>/<database>, schema:…, bp:<id>, vm:…, host:…' }),
      kind: Type.Enum(ENTITY_KINDS),
      name: Type.Optional(Type.String({ maxLength: 300 })),
      engine: Type.Optional(Type.String({ description: 'instance / database / schema: postgres, mysql, …' })),
      tier: Type.Optional(Type.Enum(['critical', 'important', 'standard'])),
      owner: Type.Optional(Type.String()), team: Type.Optional(Type.String()), environment: Type.Optional(Type.String()),
      attrs: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    }), { maxItems: MAX_ENTITIES }),
    links: Type.Optional(Type.Array(Type.Object({
      from: Type.String(), to: Type.String(),
      via: Type.Enum(['calls', 'runs-on', 'member'], { description: 'from calls to; from runs on to; a business process has to as a member' }),
    }), { maxItems: MAX_LINKS })),
    sources: Type.Optional(Type.Array(Type.Object({
      id: Type.String({ minLength: 1, maxLength: MAX_SOURCE_ID, description: 'A Prometheus job, an alert rule group, a monitor: unique in the file' }),
      name: Type.Optional(Type.String({ maxLength: 300 })),
      services: Type.Optional(Type.Array(Type.String(sourceKey), { description: 'Keys of the services this source stands for (svc:checkout); they need not be in this file' })),
      entities: Type.Optional(Type.Array(Type.String(sourceKey), { description: 'Other keys it watches (host:…, db:…) when it names no service' })),
    }), { maxItems: MAX_SOURCES, description: 'Monitoring sources: the alerts of a source of a single service are held with it in a blast radius' })),
  },
  { $id: 'https://changeledger.dev/schemas/catalogue-1.json', title: 'changeledger catalogue file' },
);

/** Text as YAML or JSON (JSON is YAML); a syntax error names its line. */
export function parseDocument(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: parseYaml(text, { maxAliasCount: 100, prettyErrors: true }) as unknown };
  } catch (err) {
    return { ok: false, error: `the file is neither YAML nor JSON: ${(err as Error).message.split('\n')[0]}` };
  }
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/**
 * Our own format:
 * `{format: changeledger/catalogue/1, source?, entities: [{key, kind, name, engine?, tier?, owner?, team?, environment?, attrs?}], links: [{from, to, via}], sources?: [{id, name?, services?, entities?}]}`.
 * Every problem names the field (`entities.3.kind`). A link must join entities of the file; a
 * monitoring source may name keys the file does not hold (another import may report them).
 */
export function parseCatalogue(doc: unknown): ParseResult {
  const d = doc && typeof doc === 'object' && !Array.isArray(doc) ? (doc as Record<string, unknown>) : null;
  if (!d) return { ok: false, error: 'the document must be an object with entities and links', field: 'body' };
  if (d.format !== undefined && d.format !== CATALOGUE_FORMAT) return { ok: false, error: `format must be ${CATALOGUE_FORMAT}`, field: 'format' };
  const rawEntities = d.entities ?? [];
  const rawLinks = d.links ?? [];
  if (!Array.isArray(rawEntities)) return { ok: false, error: 'entities must be a list', field: 'entities' };
  if (!Array.isArray(rawLinks)) return { ok: false, error: 'links must be a list', field: 'links' };
  if (rawEntities.length > MAX_ENTITIES) return { ok: false, error: `at most ${MAX_ENTITIES} entities in one file`, field: 'entities' };
  if (rawLinks.length > MAX_LINKS) return { ok: false, error: `at most ${MAX_LINKS} links in one file`, field: 'links' };
  const entities: Entity[] = [];
  const seen = new Set<string>();
  for (const [i, raw] of rawEntities.entries()) {
    const e = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    const at = `entities.${i}`;
    const key = str(e.key);
    if (!key || !KEY.test(key)) return { ok: false, error: `${at}.key must look like svc:checkout or db:orders-pg/orders`, field: `${at}.key` };
    if (seen.has(key)) return { ok: false, error: `${at}.key ${key} appears twice`, field: `${at}.key` };
    const kind = str(e.kind);
    if (!kind || !isKind(kind)) return { ok: false, error: `${at}.kind must be one of the entity kinds`, field: `${at}.kind` };
    const name = str(e.name) ?? key.slice(key.indexOf(':') + 1);
    const tier = e.tier === undefined || e.tier === null ? null : str(e.tier);
    if (tier !== null && !(TIERS as readonly string[]).includes(tier)) return { ok: false, error: `${at}.tier must be critical, important or standard`, field: `${at}.tier` };
    if (e.attrs !== undefined && (typeof e.attrs !== 'object' || e.attrs === null || Array.isArray(e.attrs))) return { ok: false, error: `${at}.attrs must be an object`, field: `${at}.attrs` };
    seen.add(key);
    entities.push({
      key, kind, name: name.slice(0, 300), engine: str(e.engine), tier: tier as Tier | null, owner: str(e.owner), team: str(e.team), environment: str(e.environment),
      attrs: (e.attrs as Record<string, unknown> | undefined) ?? {},
    });
  }
  const links: Link[] = [];
  const linkSeen = new Set<string>();
  for (const [i, raw] of rawLinks.entries()) {
    const l = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    const at = `links.${i}`;
    const from = str(l.from);
    const to = str(l.to);
    const via = str(l.via);
    if (!from || !seen.has(from)) return { ok: false, error: `${at}.from must be the key of an entity in this file`, field: `${at}.from` };
    if (!to || !seen.has(to)) return { ok: false, error: `${at}.to must be the key of an entity in this file`, field: `${at}.to` };
    if (from === to) return { ok: false, error: `${at} links ${from} to itself`, field: `${at}.to` };
    if (!via || !(VIAS as readonly string[]).includes(via)) return { ok: false, error: `${at}.via must be calls, runs-on or member`, field: `${at}.via` };
    const id = `${from}\u0000${to}\u0000${via}`;
    if (linkSeen.has(id)) continue;
    linkSeen.add(id);
    links.push({ from, to, via: via as Via });
  }
  const sources = parseSources(d.sources);
  if (!Array.isArray(sources)) return sources;
  return { ok: true, estate: { entities, links }, sources, source: str(d.source) };
}

type Fail = { ok: false; error: string; field: string };

/** The optional `sources` list: ids unique, keys shaped like entity keys, each key once per list. */
function parseSources(raw: unknown): MonitorSourceInput[] | Fail {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) return { ok: false, error: 'sources must be a list', field: 'sources' };
  if (raw.length > MAX_SOURCES) return { ok: false, error: `at most ${MAX_SOURCES} sources in one file`, field: 'sources' };
  const out: MonitorSourceInput[] = [];
  const ids = new Set<string>();
  for (const [i, item] of raw.entries()) {
    const at = `sources.${i}`;
    if (!item || typeof item !== 'object' || Array.isArray(item)) return { ok: false, error: `${at} must be an object with id, name, services and entities`, field: at };
    const s = item as Record<string, unknown>;
    const id = str(s.id);
    if (!id || id.length > MAX_SOURCE_ID) return { ok: false, error: `${at}.id must be 1 to ${MAX_SOURCE_ID} characters`, field: `${at}.id` };
    if (ids.has(id)) return { ok: false, error: `${at}.id ${id} appears twice`, field: `${at}.id` };
    if (s.name !== undefined && s.name !== null && typeof s.name !== 'string') return { ok: false, error: `${at}.name must be a string`, field: `${at}.name` };
    const lists = { services: new Set<string>(), entities: new Set<string>() };
    for (const list of ['services', 'entities'] as const) {
      const keys = s[list] ?? [];
      if (!Array.isArray(keys)) return { ok: false, error: `${at}.${list} must be a list of keys`, field: `${at}.${list}` };
      for (const [k, rawKey] of keys.entries()) {
        const key = str(rawKey);
        if (!key || !KEY.test(key)) return { ok: false, error: `${at}.${list}.${k} must look like svc:checkout or host:db-1`, field: `${at}.${list}.${k}` };
        lists[list].add(key);
      }
    }
    ids.add(id);
    out.push({ id, name: (str(s.name) ?? id).slice(0, 300), services: [...lists.services], entities: [...lists.entities] });
  }
  return out;
}
