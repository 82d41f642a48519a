import type { Queryable } from '../../platform/db/database.js';
import { matchContext, type MatchContext } from './matching.js';

/**
 * What another domain needs to turn a name into a catalogue service without going through a
 * change registration: the matching context (entities, aliases, manual services) and the
 * repositories that Backstage's project-slug annotations tie to an entity.
 */
export type ServiceNames = {
  match: MatchContext;
  /** `owner/name` or `group/project`, lower-cased → entity key. */
  repoSlugs: ReadonlyMap<string, string>;
};

/** One read of the organisation's catalogue names (stale entities left out, as matching does). */
export async function readServiceNames(q: Queryable, orgId: string): Promise<ServiceNames> {
  // One after the other: q may be a transaction, which runs one statement at a time anyway.
  const entities = await q.query<{ kind: string; key: string; name: string; github: string | null; gitlab: string | null }>(
    `SELECT kind, key, name, attrs->>'githubSlug' AS github, attrs->>'gitlabSlug' AS gitlab
       FROM catalogue_entities WHERE org_id = $1 AND NOT stale ORDER BY key`, [orgId]);
  const aliases = await q.query<{ alias: string; kind: string; key: string }>('SELECT alias, kind, key FROM component_aliases WHERE org_id = $1', [orgId]);
  const repoSlugs = new Map<string, string>();
  for (const e of entities.rows) {
    for (const slug of [e.github, e.gitlab]) if (slug && !repoSlugs.has(slug.toLowerCase())) repoSlugs.set(slug.toLowerCase(), e.key);
  }
  // Manual services are catalogue entities already (source 'manual'), so they match by name as is.
  return { match: matchContext(entities.rows.map((e) => ({ kind: e.kind, key: e.key, name: e.name })), aliases.rows, []), repoSlugs };
}
