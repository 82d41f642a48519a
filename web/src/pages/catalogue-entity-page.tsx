import { useEffect, useMemo, useState } from 'react';
import { ApiError, api, type CatalogueWalk } from '../api/client';
import type { InventoryEntityAnswer, Neighbour } from '../api/types';
import { KindBadge, StaleBadge, TierBadge, ViaBadge } from '../components/catalogue-badges';
import { WalkControls } from '../components/catalogue-filters';
import { CopyButton } from '../components/copy-button';
import { EntityActivity, registerHereHref } from '../components/entity-activity';
import { ErrorBanner } from '../components/error-banner';
import { Layout } from '../components/layout';
import { Link, useRouter, useSearchParams } from '../components/router';
import { entityHref, runsOn, walkFrom } from '../lib/catalogue';
import { errorMessage, isAbort } from '../lib/errors';
import { formatUtc } from '../lib/format';
import './catalogue-entity-page.css';

type Failure = { message: string; notFound: boolean };

export function CatalogueEntityPage({ entityKey }: { entityKey: string }) {
  const { navigate } = useRouter();
  const params = useSearchParams();
  const { hops, includeStale } = walkFrom(params);
  const walk = useMemo((): CatalogueWalk => ({ hops, includeStale }), [hops, includeStale]);
  const [answer, setAnswer] = useState<InventoryEntityAnswer | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    const abort = new AbortController();
    api.catalogueEntity(entityKey, walk, abort.signal).then(
      (next) => {
        if (abort.signal.aborted) return;
        setAnswer(next);
        setFailure(null);
      },
      (caught: unknown) => {
        if (abort.signal.aborted || isAbort(caught)) return;
        setFailure({ message: errorMessage(caught), notFound: caught instanceof ApiError && caught.status === 404 });
      },
    );
    return () => { abort.abort(); };
  }, [entityKey, walk, reloads]);

  const actions = (
    <>
      <Link className="btn" to="/catalogue" data-testid="entity-back">
        Catalogue
      </Link>
      <CopyButton value={entityKey} label="Copy key" testId="entity-copy-key" />
      {answer !== null && (
        <Link className="btn btn-primary" to={registerHereHref(entityKey)} data-testid="entity-register-change">
          Register a change here
        </Link>
      )}
    </>
  );

  const entity = answer?.entity;
  if (entity === undefined) {
    return (
      <Layout title={entityKey} titleMono actions={actions}>
        {failure?.notFound === true ? (
          <div className="card" data-testid="entity-not-found">
            <p className="muted">
              There is no <span className="mono">{entityKey}</span> in the catalogue. Search the{' '}
              <Link to={`/catalogue?${new URLSearchParams({ q: entityKey }).toString()}`}>catalogue</Link> for it.
            </p>
          </div>
        ) : (
          <ErrorBanner message={failure?.message ?? null} testId="entity-error" onRetry={() => { setReloads((n) => n + 1); }} />
        )}
        {failure === null && <p className="muted">Loading…</p>}
      </Layout>
    );
  }

  const placement = runsOn(entity);
  const meta = entity.meta;

  return (
    <Layout title={entity.key} titleMono actions={actions}>
      <ErrorBanner message={failure?.message ?? null} testId="entity-error" onRetry={() => { setReloads((n) => n + 1); }} />
      <section className="card entity-header" data-testid="entity-header" data-key={entity.key} data-kind={entity.kind}>
        <div className="entity-title">
          <KindBadge kind={entity.kind} />
          <span className="entity-name" data-testid="entity-name">
            {entity.name}
            {placement.length > 0 && (
              <span className="muted" data-testid="entity-runs-on">
                {' · on '}
                {placement.map((n, i) => (
                  <span key={n.key}>
                    {i > 0 && ', '}
                    <Link to={entityHref(n.key, walk)} className="mono">
                      {n.key}
                    </Link>
                  </span>
                ))}
              </span>
            )}
          </span>
          {entity.stale && <StaleBadge title="The source that reported this entity no longer does" />}
        </div>
        <dl className="kv kv-wide">
          <dt>Key</dt>
          <dd className="mono" data-testid="entity-key">
            {entity.key}
          </dd>
          {entity.engine !== undefined && (
            <>
              <dt>Engine</dt>
              <dd data-testid="entity-engine">{entity.engine}</dd>
            </>
          )}
          {meta !== undefined && (
            <>
              <dt>Tier</dt>
              <dd data-testid="entity-tier">{meta.tier === null ? <span className="muted">—</span> : <TierBadge tier={meta.tier} />}</dd>
              <dt>Owner</dt>
              <dd className="mono" data-testid="entity-owner">
                {meta.owner ?? <span className="muted">—</span>}
              </dd>
              <dt>Team</dt>
              <dd data-testid="entity-team">{meta.team ?? <span className="muted">—</span>}</dd>
              <dt>Environment</dt>
              <dd data-testid="entity-environment">{meta.environment ?? <span className="muted">—</span>}</dd>
            </>
          )}
          <dt>Status</dt>
          <dd data-testid="entity-status">
            {entity.stale
              ? `stale: its source no longer reports it${walk.includeStale ? '' : ' (its call edges show with “Include stale call edges”)'}`
              : 'current'}
          </dd>
          <dt>Snapshot</dt>
          <dd className="mono small" title="Answers come from a snapshot of at most 60 s">
            {formatUtc(answer?.snapshotAt)}
          </dd>
        </dl>
      </section>

      {entity.truncated === true && (
        <div className="banner banner-warn" role="status" data-testid="entity-truncated">
          <span className="banner-text">
            Truncated: a list stops at 200 neighbours and the walk at 2,000 edges, so some neighbours are not shown.
          </span>
        </div>
      )}

      <div className="section-head entity-walk">
        <span className="muted small">
          {entity.name} uses what it calls, runs on or (a business process) has as members; it is used by whatever
          does that to it.
        </span>
        <WalkControls
          idPrefix="entity"
          hops={walk.hops}
          includeStale={walk.includeStale}
          onChange={(patch) => { navigate(entityHref(entity.key, { ...walk, ...patch })); }}
        />
      </div>

      <div className="neighbour-grid">
        <NeighbourColumn
          entityKey={entity.key}
          title="Uses"
          side="uses"
          hop1={entity.uses.hop1}
          hop2={entity.uses.hop2}
          walk={walk}
        />
        <NeighbourColumn
          entityKey={entity.key}
          title="Used by"
          side="used-by"
          hop1={entity.usedBy.hop1}
          hop2={entity.usedBy.hop2}
          walk={walk}
        />
      </div>

      <EntityActivity entityKey={entity.key} kind={entity.kind} />
    </Layout>
  );
}

type ColumnProps = {
  entityKey: string;
  title: string;
  side: 'uses' | 'used-by';
  hop1: readonly Neighbour[];
  hop2: readonly Neighbour[];
  walk: CatalogueWalk;
};

function NeighbourColumn({ entityKey, title, side, hop1, hop2, walk }: ColumnProps) {
  const titleId = `entity-${side}-title`;
  return (
    <section className="card neighbour-column" data-testid={`entity-${side}`} aria-labelledby={titleId}>
      <h2 id={titleId}>
        {title} <span className="muted">{hop1.length + hop2.length}</span>
      </h2>
      <h3 className="hop-title">
        Hop 1 <span className="muted">· direct · {hop1.length}</span>
      </h3>
      <NeighbourList items={hop1} hop={1} side={side} walk={walk} />
      <h3 className="hop-title">
        Hop 2 <span className="muted">· through one of those · {hop2.length}</span>
      </h3>
      {walk.hops === 1 ? (
        <p className="muted small neighbours-empty" data-testid={`entity-${side}-hop2-off`}>
          Not walked at one hop. <Link to={entityHref(entityKey, { ...walk, hops: 2 })}>Walk two hops</Link>
        </p>
      ) : (
        <NeighbourList items={hop2} hop={2} side={side} walk={walk} />
      )}
    </section>
  );
}

function NeighbourList({
  items,
  hop,
  side,
  walk,
}: {
  items: readonly Neighbour[];
  hop: 1 | 2;
  side: string;
  walk: CatalogueWalk;
}) {
  if (items.length === 0) {
    return (
      <p className="muted small neighbours-empty" data-testid={`entity-${side}-hop${String(hop)}-empty`}>
        None.
      </p>
    );
  }
  return (
    <ul className="neighbours" data-testid={`entity-${side}-hop${String(hop)}`}>
      {items.map((n) => (
        <li
          key={n.key}
          className={n.stale === true ? 'neighbour stale' : 'neighbour'}
          data-testid="neighbour"
          data-key={n.key}
          data-hop={hop}
          data-via={n.via ?? ''}
        >
          {n.via !== undefined && <ViaBadge via={n.via} />}
          <Link to={entityHref(n.key, walk)} className="mono neighbour-key" data-testid="neighbour-link">
            {n.key}
          </Link>
          <KindBadge kind={n.kind} />
          {n.name !== n.key && <span className="muted small ellipsis neighbour-name">{n.name}</span>}
          {n.stale === true && <StaleBadge title="The source no longer reports this link" />}
        </li>
      ))}
    </ul>
  );
}
