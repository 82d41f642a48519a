import type { CatalogueWalk } from '../api/client';
import type { InventoryEntity, NeighbourSide } from '../api/types';
import { entityHref, runsOn } from '../lib/catalogue';
import { KindBadge, StaleBadge, TierBadge } from './catalogue-badges';
import { Link } from './router';
import './catalogue-table.css';

type Props = {
  entities: readonly InventoryEntity[];
  walk: CatalogueWalk;
  busy: boolean;
};

export function CatalogueTable({ entities, walk, busy }: Props) {
  return (
    <table className="data-table catalogue-table" data-testid="catalogue-table" aria-busy={busy}>
      <thead>
        <tr>
          <th scope="col">Key</th>
          <th scope="col">Kind</th>
          <th scope="col">Name</th>
          <th scope="col">Tier</th>
          <th scope="col">Owner</th>
          <th scope="col">Team</th>
          <th scope="col">
            <span className="visually-hidden">Stale</span>
          </th>
          <th scope="col" className="num" title="What it calls or runs on: directly, and indirectly (two hops away)">
            Uses
          </th>
          <th scope="col" className="num" title="What calls it or runs on it: directly, and indirectly (two hops away)">
            Used by
          </th>
        </tr>
      </thead>
      <tbody>
        {entities.map((entity) => {
          const placement = runsOn(entity);
          return (
            <tr
              key={entity.key}
              className={entity.stale ? 'inactive' : undefined}
              data-testid="catalogue-row"
              data-key={entity.key}
              data-kind={entity.kind}
              data-stale={String(entity.stale)}
            >
              <td className="nowrap">
                <Link to={entityHref(entity.key, walk)} className="mono" data-testid="catalogue-link">
                  {entity.key}
                </Link>
              </td>
              <td>
                <KindBadge kind={entity.kind} />
              </td>
              <td>
                <span data-testid="catalogue-name">{entity.name}</span>
                {placement.length > 0 && (
                  <span className="muted small">
                    {' · on '}
                    {placement.map((n, i) => (
                      <span key={n.key}>
                        {i > 0 && ', '}
                        <span className="mono">{n.key}</span>
                      </span>
                    ))}
                  </span>
                )}
                {entity.engine !== undefined && <span className="muted small"> · {entity.engine}</span>}
              </td>
              <td>{entity.meta?.tier != null && <TierBadge tier={entity.meta.tier} />}</td>
              <td className="mono">{entity.meta?.owner ?? ''}</td>
              <td>{entity.meta?.team ?? ''}</td>
              <td className="nowrap">
                {entity.stale && <StaleBadge title="The source that reported this entity no longer does" />}
                {entity.truncated === true && (
                  <span className="pill" title="A neighbour list hit 200 entries or the walk 2,000 edges" data-testid="truncated-badge">
                    truncated
                  </span>
                )}
              </td>
              <SideCell side={entity.uses} walk={walk} testId="catalogue-uses" />
              <SideCell side={entity.usedBy} walk={walk} testId="catalogue-used-by" />
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function SideCell({ side, walk, testId }: { side: NeighbourSide; walk: CatalogueWalk; testId: string }) {
  const hop1 = side.hop1.length;
  const hop2 = side.hop2.length;
  return (
    <td
      className="num nowrap mono"
      data-testid={testId}
      data-hop1={hop1}
      data-hop2={hop2}
      title={walk.hops === 2 ? `${String(hop1)} direct, ${String(hop2)} indirect (two hops away)` : `${String(hop1)} direct`}
    >
      {hop1 === 0 && (walk.hops === 1 || hop2 === 0) ? (
        <span className="muted">none</span>
      ) : (
        <>
          <span className="strong">{hop1}</span> <span className="muted">direct</span>
          {walk.hops === 2 && (
            <>
              <span className="muted">{' · '}</span>
              {hop2} <span className="muted">indirect</span>
            </>
          )}
        </>
      )}
    </td>
  );
}
