import type { Receipt } from '../api/observed-types';
import type { ChangeDetail } from '../api/types';
import { formatUtc } from '../lib/format';
import { locationParts, sourceLabel } from '../lib/record-format';
import './change-receipts.css';

/** GET /api/changes/:id's receipts (an answer from before receipts existed has none). */
export function receiptsOf(detail: ChangeDetail): readonly Receipt[] {
  return detail.receipts ?? [];
}

// A planned change's receipts: writes seen in a system's own audit record that carried this
// change's id (a K8s annotation, an AWS session tag, a commit trailer, a deployment payload field),
// so they confirm the change instead of becoming observed changes of their own.
export function ChangeReceipts({ receipts, displayId }: { receipts: readonly Receipt[]; displayId: string }) {
  return (
    <section className="card change-receipts" data-testid="change-receipts" aria-labelledby="change-receipts-title">
      <h2 id="change-receipts-title">Receipts</h2>
      {receipts.length === 0 ? (
        <p className="muted small" data-testid="change-receipts-empty">
          No write has carried this change’s id yet. A Kubernetes annotation <code>changeledger.io/change-id: {displayId}</code>, an
          AWS session tag or source identity, a <code>Change-Id: {displayId}</code> commit trailer or a deployment payload field
          makes the write a receipt here.
        </p>
      ) : (
        <ul className="receipt-list">
          {receipts.map((r) => {
            const where = locationParts(r.location).map(([, v]) => v).join(' · ');
            return (
              <li key={`${r.source}:${r.eventId}`} className="receipt-row" data-testid="change-receipt" data-source={r.source}>
                <div className="receipt-line">
                  <span className="pill pill-source">{sourceLabel(r.source)}</span>{' '}
                  <strong data-testid="receipt-title">{r.title}</strong>
                </div>
                <div className="muted small">
                  <span data-testid="receipt-who">{r.principal.name === '' ? 'unknown' : r.principal.name}</span>
                  {' · '}
                  <span data-testid="receipt-what">{[r.action, r.resource].filter((x) => x !== null && x !== '').join(' ') || r.kind}</span>
                  {where !== '' && ` · ${where}`}
                  {' · '}
                  <span className="mono">{formatUtc(r.at)}</span>
                  {r.link !== null && (
                    <>
                      {' · '}
                      <a href={r.link} target="_blank" rel="noreferrer noopener" data-testid="receipt-link">source event</a>
                    </>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
