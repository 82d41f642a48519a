import { useState } from 'react';
import { unmanagedApi } from '../api/unmanaged-client';
import type { MintedItsmToken, UnmanagedSettings } from '../api/unmanaged-types';
import { errorMessage } from '../lib/errors';
import { formatUtc } from '../lib/format';
import { itsmCurl, itsmUrl } from '../lib/unmanaged';
import { CopyButton } from './copy-button';
import { ErrorBanner } from './error-banner';
import { SecretBox } from './secret-box';

const systems = [
  { system: 'servicenow', name: 'ServiceNow', how: 'a Business Rule or Flow on change_request that posts the record (or the Table API’s {result: …}) on insert and update' },
  { system: 'jira', name: 'Jira', how: 'a webhook (System → WebHooks) for issue created and updated, filtered by JQL to your change project' },
] as const;

// The ITSM webhook token: minted here, shown once, and the two URLs the ITSM tools post their
// change tickets to, on the pipeline listener. Minting a new one ends the old one at once.
export function ItsmTokenCard(p: { settings: UnmanagedSettings; orgId: string; orgSlug: string; canEdit: boolean; pipelineUrl: string | null; onMinted: (mintedAt: string) => void }) {
  const { settings, canEdit, pipelineUrl } = p;
  const [minted, setMinted] = useState<MintedItsmToken | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const now = new Date();

  const mint = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      const answer = await unmanagedApi.mintItsmToken(p.orgId);
      setMinted(answer);
      setConfirming(false);
      p.onMinted(answer.mintedAt);
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card unmanaged-card" data-testid="itsm-token-card" aria-labelledby="itsm-token-title">
      <h2 id="itsm-token-title">Change tickets from ServiceNow and Jira</h2>
      <p className="muted small">
        Your ITSM tool posts its change tickets to the pipeline listener with the organisation’s ITSM webhook token. A ticket that
        arrives with it can vouch for a write; one sent without it (with <code>?org={p.orgSlug}</code>) is kept but never counts.
      </p>
      <p data-testid="itsm-token-state">
        {settings.itsmTokenSet
          ? <>A token is set, minted {formatUtc(settings.itsmTokenMintedAt)}. Only its hash is kept.</>
          : 'No ITSM webhook token yet: no ticket can vouch for a write until one is minted and your tool sends it.'}
      </p>
      <ErrorBanner message={error} testId="itsm-token-error" />
      {minted !== null && (
        <SecretBox
          testId="itsm-token-secret"
          title="ITSM webhook token"
          aside={`minted ${formatUtc(minted.mintedAt)}`}
          warning="Copy this token now: you will not see it again. changeledger keeps only its hash."
          value={minted.token}
          copyLabel="Copy the token"
          dismissLabel="I have copied it"
          onDismiss={() => { setMinted(null); }}
        />
      )}
      {canEdit && (
        <div className="itsm-actions" data-testid="itsm-token-actions">
          {!settings.itsmTokenSet ? (
            <button type="button" className="btn btn-primary" onClick={() => void mint()} disabled={busy} data-testid="itsm-token-mint">
              {busy ? 'Minting…' : 'Mint a token'}
            </button>
          ) : confirming ? (
            <>
              <span className="small" data-testid="itsm-token-confirm-text">
                The current token stops working at once: tickets sent with it are refused until your tools send the new one.
              </span>
              <button type="button" className="btn btn-small btn-danger" onClick={() => void mint()} disabled={busy} data-testid="itsm-token-confirm">
                {busy ? 'Minting…' : 'Mint a new one'}
              </button>
              <button type="button" className="btn btn-small" onClick={() => { setConfirming(false); }} disabled={busy} data-testid="itsm-token-cancel">
                Keep the current one
              </button>
            </>
          ) : (
            <button type="button" className="btn" onClick={() => { setConfirming(true); }} data-testid="itsm-token-remint">
              Mint a new one
            </button>
          )}
        </div>
      )}
      <h3 className="unmanaged-subhead">Webhook URLs to paste</h3>
      {pipelineUrl === null && (
        <div className="banner banner-warn small" data-testid="itsm-no-pipeline">
          <span className="banner-text">
            The pipeline listener’s address is not known here: replace <code>changeledger.example:4320</code> with where it listens.
          </span>
        </div>
      )}
      {systems.map((s) => {
        const base = pipelineUrl ?? 'https://changeledger.example:4320';
        const url = itsmUrl(base, s.system);
        const curl = itsmCurl(base, s.system, now);
        return (
          <div className="itsm-system" key={s.system} data-testid="itsm-system" data-system={s.system}>
            <div className="itsm-endpoint">
              <strong className="itsm-system-name">{s.name}</strong>
              <code className="mono small" data-testid="itsm-url">{url}</code>
              <CopyButton value={url} label="Copy" testId={`itsm-url-copy-${s.system}`} />
            </div>
            <p className="muted small itsm-how">From {s.how}; header <code>Authorization: Bearer &lt;ITSM webhook token&gt;</code>.</p>
            <details className="itsm-curl" data-testid="itsm-curl">
              <summary className="small">Try it with curl</summary>
              <div className="itsm-snippet-head">
                <span className="muted small">A ticket as {s.name} sends it; paste the token where it says so.</span>
                <CopyButton value={curl} label="Copy" testId={`itsm-curl-copy-${s.system}`} />
              </div>
              <pre className="json itsm-snippet" data-testid={`itsm-curl-${s.system}`}>{curl}</pre>
            </details>
          </div>
        );
      })}
    </section>
  );
}
