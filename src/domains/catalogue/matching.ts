/** Resolving the components a person or a pipeline names to catalogue entities. Pure. */

export const MAX_CANDIDATES = 10;
/** What a change names: these win a name tie against infrastructure of the same name. */
const SERVICE_LIKE: ReadonlySet<string> = new Set(['service', 'instance', 'database', 'schema', 'external']);

export type ComponentInput = { kind?: string; key?: string; query?: string };
export type Candidate = { kind: string; key: string; name: string };
export type Resolved = Candidate & { match: 'exact' | 'alias' | 'manual' | 'key'; query?: string; seen: boolean };
export type Unresolved = { query: string; candidates: Candidate[] };
export type MatchResult = { resolved: Resolved[]; unresolved: Unresolved[]; match: { matched: number; unresolved: string[] } };

export type MatchContext = {
  entities: ReadonlyMap<string, Candidate>;
  /** Lower-cased name → entities of that name (several: a database on a primary and its replica). */
  byName: ReadonlyMap<string, Candidate[]>;
  aliases: ReadonlyMap<string, { kind: string; key: string }>;
  manual: ReadonlyArray<{ key: string; name: string }>;
};

export function matchContext(entities: Candidate[], aliases: Array<{ alias: string; kind: string; key: string }>, manual: Array<{ key: string; name: string }>): MatchContext {
  const byName = new Map<string, Candidate[]>();
  for (const e of entities) byName.set(e.name.toLowerCase(), [...(byName.get(e.name.toLowerCase()) ?? []), e]);
  return { entities: new Map(entities.map((e) => [e.key, e])), byName, aliases: new Map(aliases.map((a) => [a.alias, { kind: a.kind, key: a.key }])), manual };
}

/** Candidates for a name nothing matched exactly once: same-named entities first, then those containing it. */
function candidates(ctx: MatchContext, q: string): Candidate[] {
  const lower = q.toLowerCase();
  const same = ctx.byName.get(lower) ?? [];
  const out = [...same];
  for (const e of ctx.entities.values()) {
    if (out.length >= MAX_CANDIDATES) break;
    if (!same.includes(e) && (e.name.toLowerCase().includes(lower) || e.key.toLowerCase().includes(lower))) out.push(e);
  }
  return out.slice(0, MAX_CANDIDATES);
}

/** One name: exactly one catalogue hit, else a remembered alias, else a manual service, else candidates. */
export function resolveName(ctx: MatchContext, query: string): Resolved | Unresolved {
  const q = query.trim();
  const asKey = ctx.entities.get(q);
  if (asKey) return { ...asKey, match: 'key', query: q, seen: true };
  const hits = ctx.byName.get(q.toLowerCase()) ?? [];
  if (hits.length === 1) return { ...hits[0]!, match: 'exact', query: q, seen: true };
  // A Deployment is often named like its service: the one service-like hit among infrastructure wins.
  const services = hits.filter((h) => SERVICE_LIKE.has(h.kind));
  if (services.length === 1) return { ...services[0]!, match: 'exact', query: q, seen: true };
  const alias = ctx.aliases.get(q.toLowerCase());
  if (alias) {
    const target = ctx.entities.get(alias.key);
    return { kind: alias.kind, key: alias.key, name: target?.name ?? alias.key, match: 'alias', query: q, seen: !!target };
  }
  const manual = ctx.manual.find((m) => m.name.toLowerCase() === q.toLowerCase() || m.key === q);
  if (manual) return { kind: 'service', key: manual.key, name: manual.name, match: 'manual', query: q, seen: ctx.entities.has(manual.key) };
  return { query: q, candidates: candidates(ctx, q) };
}

/** `{kind, key}` is taken as given (an unseen key is kept), `{query}` and each line are resolved. */
export function matchComponents(ctx: MatchContext, input: { components?: ComponentInput[]; lines?: string }): MatchResult {
  const resolved: Resolved[] = [];
  const unresolved: Unresolved[] = [];
  const seenKeys = new Set<string>();
  const push = (r: Resolved | Unresolved) => {
    if ('candidates' in r) unresolved.push(r);
    else if (!seenKeys.has(r.key)) {
      seenKeys.add(r.key);
      resolved.push(r);
    }
  };
  for (const c of input.components ?? []) {
    if (c.key) {
      const known = ctx.entities.get(c.key);
      push({ kind: c.kind ?? known?.kind ?? 'service', key: c.key, name: known?.name ?? c.key, match: 'key', seen: !!known });
    } else if (c.query) push(resolveName(ctx, c.query));
  }
  for (const line of (input.lines ?? '').split('\n').map((l) => l.trim()).filter(Boolean)) push(resolveName(ctx, line));
  return { resolved, unresolved, match: { matched: resolved.length, unresolved: unresolved.map((u) => u.query) } };
}

/** `Payments API` → `svc:payments-api`. */
export function manualKey(name: string): string | null {
  const slug = name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 100);
  return slug ? `svc:${slug}` : null;
}
