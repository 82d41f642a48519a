import type { ObservedView, RevertDraft } from '../api/observed-types';
import { sentence } from '../lib/format';
import { referenceLabels, revertToolLabels } from '../lib/unmanaged';
import { CopyButton } from './copy-button';
import { Link } from './router';

// The reference rule's answer on an observed change's page: unauthorized (loud, with the reason)
// or authorized (what vouched for it). A write the rule did not judge shows nothing here.
export function ObservedAuthorization({ o }: { o: ObservedView }) {
  if (o.authorized === false) {
    return (
      <div className="banner banner-error observed-verdict" role="status" data-testid="observed-authorization" data-authorized="false">
        <div className="banner-text">
          <strong>Unauthorized:</strong> <span data-testid="observed-authorization-reason">{o.authorizedReason ?? 'no reference found'}</span>
          <div className="small observed-verdict-more">
            With the reference rule on, this write needed a planned change’s id, a matching change ticket, a planned change’s window or an
            authorized principal, and had none. See <Link to="/settings/unmanaged-changes">Settings → Unmanaged changes</Link>.
          </div>
        </div>
      </div>
    );
  }
  if (o.authorized === true && (o.authorizedReason !== null || o.reference !== null)) {
    return (
      <div className="banner banner-ok observed-verdict" role="status" data-testid="observed-authorization" data-authorized="true">
        <span className="banner-text">
          <strong>Authorized:</strong> <span data-testid="observed-authorization-reason">{o.authorizedReason ?? referenceLabels[o.reference ?? 'kept']}</span>
          {o.reference !== null && o.reference !== 'authorized_principal' && <span className="muted small"> — reference: {referenceLabels[o.reference]}</span>}
        </span>
      </div>
    );
  }
  return null;
}

/** The server's words, with its `backquoted` commands set as code. */
export function Words({ text }: { text: string }) {
  const parts = text.split('`');
  // An odd count of backquotes leaves the text as it is.
  if (parts.length % 2 === 0) return <>{text}</>;
  return <>{parts.map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}</>;
}

/**
 * The steps of a drafted revert, as the observed change page and a case show them: what it does,
 * the command to copy, the manifest it reads, or, with no known inverse, what the write changed.
 * Test ids are `${testId}-summary`, `-command`, `-copy`, `-manifest`, `-manifest-copy`, `-changed`, `-no-inverse`.
 */
export function RevertSteps({ revert: r, testId }: { revert: RevertDraft; testId: string }) {
  return (
    <>
      <p className="revert-summary" data-testid={`${testId}-summary`}><Words text={sentence(r.summary)} /></p>
      {r.command !== null && (
        <div className="revert-block">
          <div className="revert-block-head">
            <span className="muted small">Run with {revertToolLabels[r.tool]}, with your own access:</span>
            <CopyButton value={r.command} label="Copy the command" testId={`${testId}-copy`} />
          </div>
          <pre className="revert-code" data-testid={`${testId}-command`}>{r.command}</pre>
        </div>
      )}
      {r.manifest !== null && (
        <details className="revert-manifest" data-testid={`${testId}-manifest`}>
          <summary>The manifest the command reads: the object as it was</summary>
          <div className="revert-block-head">
            <span className="muted small">Secrets’ values are left out: put them back before you apply it.</span>
            <CopyButton value={r.manifest} label="Copy the manifest" testId={`${testId}-manifest-copy`} />
          </div>
          <pre className="revert-code" data-testid={`${testId}-manifest-text`}>{r.manifest}</pre>
        </details>
      )}
      {r.command === null && (
        <div className="revert-block" data-testid={`${testId}-no-inverse`}>
          <span className="muted small">No inverse is known. {r.changed === null ? 'Undo it by hand.' : 'What the write changed, to put back by hand:'}</span>
          {r.changed !== null && <pre className="revert-code" data-testid={`${testId}-changed`}>{r.changed}</pre>}
        </div>
      )}
    </>
  );
}

// "Undo it yourself": the revert drafted from the write's own event. It is a draft for a person
// to read and run with their own access; changeledger has no access to run it and never does.
export function RevertCard({ revert: r, unauthorized }: { revert: RevertDraft; unauthorized: boolean }) {
  return (
    <section className={unauthorized ? 'card revert-card revert-card-urgent' : 'card revert-card'} data-testid="observed-revert" data-tool={r.tool} aria-labelledby="observed-revert-title">
      <h2 id="observed-revert-title">Undo it yourself</h2>
      <RevertSteps revert={r} testId="observed-revert" />
      <p className="muted small revert-note" data-testid="observed-revert-note">
        changeledger never runs this command. It is drafted from the audit event alone: check it against the system as it is now, then run it
        yourself.
      </p>
    </section>
  );
}
