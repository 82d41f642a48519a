import { useEffect, useState } from 'react';
import { ApiError } from '../api/client';
import { observedApi } from '../api/observed-client';
import type { ObservedView } from '../api/observed-types';
import { ErrorBanner } from '../components/error-banner';
import { Layout } from '../components/layout';
import { ObservedAuthorization, RevertCard } from '../components/observed-authorization';
import { Link } from '../components/router';
import { caseDisplayId, caseHref } from '../lib/cases';
import { errorMessage, isAbort } from '../lib/errors';
import { formatUtc } from '../lib/format';
import { detailLabel, entityHref, locationParts, observedView, principalKindLabels, serviceLabel, sourceLabel } from '../lib/record-format';
import './observed-change-page.css';

// Only these sources read a system's own record of a write, so only they may turn a write that
// carries a planned change's id into that change's receipt (the server's HARVEST_KINDS).
const harvestSources = new Set(['github', 'gitlab', 'argocd', 'kubernetes', 'aws', 'azure']);

const viaWords: Record<ObservedView['serviceVia'], string> = {
  event: 'named by the event itself',
  repo_map: 'from the organisation’s repository map',
  unmapped: 'no service claimed it',
};

function Facts({ rows, testId, empty = 'The source did not say.' }: { rows: Array<[string, string | null | undefined]>; testId: string; empty?: string }) {
  const shown = rows.filter((r): r is [string, string] => r[1] !== null && r[1] !== undefined && r[1] !== '');
  if (shown.length === 0) return <p className="muted small" data-testid={testId}>{empty}</p>;
  return (
    <dl className="observed-facts" data-testid={testId}>
      {shown.map(([k, v]) => (
        <div key={k} className="observed-fact">
          <dt>{k}</dt>
          <dd className="mono">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Why this write is a row of its own and not a planned change's receipt. */
function receiptNote(o: ObservedView): string {
  if (o.changeRef !== null && !harvestSources.has(o.source)) {
    return `This write carried ${o.changeRef}, but a ${sourceLabel(o.source)} sender cannot stamp a receipt: only a source that reads a system’s own audit record may, so it is recorded on its own.`;
  }
  if (o.changeRef !== null) {
    return `This write carried ${o.changeRef}, which matches no planned change of this organisation, so it is recorded on its own.`;
  }
  return 'This write carried no change id. A write that carries a planned change’s id (CHG-…) is folded into that change as its receipt instead of becoming a row here.';
}

// One observed change: who made it, what and where it wrote, when, the scrubbed diff, the source
// event, the services it is linked to, and why it is not a planned change's receipt. A denied
// attempt (the source refused the write) says so first.
export function ObservedChangePage({ observedId }: { observedId: string }) {
  const [record, setRecord] = useState<ObservedView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    const abort = new AbortController();
    observedApi.getObserved(observedId, abort.signal).then(
      (answer) => {
        if (abort.signal.aborted) return;
        setRecord(observedView(answer.change));
        setError(null);
      },
      (caught: unknown) => {
        if (abort.signal.aborted || isAbort(caught)) return;
        if (caught instanceof ApiError && caught.status === 404) setMissing(true);
        else setError(errorMessage(caught));
      },
    );
    return () => { abort.abort(); };
  }, [observedId, reloads]);

  const actions = (
    <Link className="btn" to="/changes" data-testid="change-back">
      All changes
    </Link>
  );

  if (record === null) {
    return (
      <Layout title="Observed change" actions={actions}>
        {missing ? (
          <p className="empty-state card" data-testid="observed-missing">No observed change {observedId} in this organisation.</p>
        ) : (
          <>
            <ErrorBanner message={error} testId="observed-error" onRetry={() => { setReloads((n) => n + 1); }} />
            {error === null && <p className="muted">Loading the observed change…</p>}
          </>
        )}
      </Layout>
    );
  }

  const o = record;
  const services = o.services.length > 0 ? o.services : o.service === '' ? [] : [o.service];
  const detail = Object.entries(o.principal.detail);
  // A refused write changed nothing: there is nothing to undo.
  const revert = o.denied ? null : o.revert;

  return (
    <Layout title={o.title} actions={actions}>
      <div className="observed-head" data-testid="observed-head">
        <span className="mono" data-testid="observed-display-id">{o.displayId}</span>
        <span className="pill pill-source" data-testid="observed-source">{sourceLabel(o.source)}</span>
        <span className="muted">{o.kind}</span>
        <span className="change-status change-status-done" data-testid="observed-status">{o.status}</span>
        {o.authorized === false && <span className="observed-unauthorized" data-testid="observed-unauthorized">Unauthorized</span>}
      </div>
      <ObservedAuthorization o={o} />
      {o.denied && (
        <div className="banner banner-error observed-denied" role="status" data-testid="observed-denied">
          <span className="banner-text">
            Denied attempt: the source refused this write{o.errorCode !== null ? ` (${o.errorCode})` : ''}. Nothing changed; it is recorded
            because someone tried.
          </span>
        </div>
      )}
      {o.caseId !== null && (
        <p className="observed-case" data-testid="observed-case">
          <Link to={caseHref(o.caseId)} className="btn btn-small" data-testid="observed-case-link">
            Case {caseDisplayId(o.caseId)}
          </Link>{' '}
          <span className="muted small">
            Its case groups this principal’s {o.denied ? 'refused calls' : 'flagged writes'} in this account and UTC hour; approvers answer it there.
          </span>
        </p>
      )}
      <div className="observed-grid">
        <section className="card" data-testid="observed-who" aria-labelledby="observed-who-title">
          <h2 id="observed-who-title">Who</h2>
          <p className="observed-principal">
            <strong data-testid="observed-principal">{o.principal.name === '' ? 'unknown' : o.principal.name}</strong>{' '}
            <span className="pill pill-system">{principalKindLabels[o.principal.kind]}</span>
          </p>
          {o.principalClass !== null && (
            <p className="observed-class" data-testid="observed-principal-class" data-class={o.principalClass}>
              <span className="muted small">class</span>{' '}
              <span className={`pill principal-class principal-class-${o.principalClass}`}>{o.principalClass}</span>{' '}
              {o.principalClassReason !== null && <span className="small" data-testid="observed-principal-class-reason">{o.principalClassReason}</span>}
            </p>
          )}
          <Facts testId="observed-principal-detail" empty="The source said nothing more about who it was." rows={[['id', o.principal.id], ...detail.map(([k, v]): [string, string] => [detailLabel(k), v])]} />
        </section>
        <section className="card" data-testid="observed-what" aria-labelledby="observed-what-title">
          <h2 id="observed-what-title">What</h2>
          <Facts testId="observed-what-facts" rows={[['action', o.action], ['resource', o.resource], ['kind', o.kind], ['outcome', o.outcome], ['error', o.errorCode]]} />
        </section>
        <section className="card" data-testid="observed-where" aria-labelledby="observed-where-title">
          <h2 id="observed-where-title">Where</h2>
          <Facts testId="observed-location" rows={locationParts(o.location)} />
        </section>
        <section className="card" data-testid="observed-when" aria-labelledby="observed-when-title">
          <h2 id="observed-when-title">When</h2>
          <Facts testId="observed-times" rows={[['happened', formatUtc(o.at)], ['received', formatUtc(o.receivedAt)], ['event id', o.eventId], ['connection', o.connection]]} />
          {o.link !== null && (
            <a className="btn btn-small" href={o.link} target="_blank" rel="noreferrer noopener" data-testid="observed-link">
              Open the source event
            </a>
          )}
        </section>
      </div>
      {revert !== null && o.authorized === false && <RevertCard revert={revert} unauthorized />}
      <section className="card" data-testid="observed-services" aria-labelledby="observed-services-title">
        <h2 id="observed-services-title">Linked services</h2>
        {services.length === 0 ? (
          <p className="muted" data-testid="observed-unmapped">
            Unmapped: no service claimed it. A repository or resource map in <Link to="/settings/change-sources">Change sources</Link> links writes like it.
          </p>
        ) : (
          <>
            <ul className="observed-services">
              {services.map((key) => (
                <li key={key}>
                  <Link to={entityHref(key)} data-testid="observed-service-link" title={key}>{serviceLabel(key)}</Link>
                  {key === o.service && <span className="muted small"> — main service, {viaWords[o.serviceVia]}</span>}
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
      <section className="card" data-testid="observed-diff" aria-labelledby="observed-diff-title">
        <h2 id="observed-diff-title">Diff</h2>
        {o.diff === null ? (
          <p className="muted small">The source sent no diff.</p>
        ) : (
          <pre className="observed-diff-text" data-testid="observed-diff-text">{o.diff}</pre>
        )}
        <p className="muted small">Secrets are scrubbed and the text is cut at 2,048 characters before it is stored.</p>
      </section>
      {revert !== null && o.authorized !== false && <RevertCard revert={revert} unauthorized={false} />}
      <section className="card" data-testid="observed-receipt" aria-labelledby="observed-receipt-title">
        <h2 id="observed-receipt-title">Receipt</h2>
        <p data-testid="observed-receipt-note">{receiptNote(o)}</p>
      </section>
    </Layout>
  );
}
