import { useCallback, useEffect, useState } from 'react';
import { api } from '../api/client';
import type { ChainVerification } from '../api/types';
import { errorMessage } from '../lib/errors';
import { pluralize, shortHash } from '../lib/format';
import './verify-badge.css';

type VerifyState =
  | { status: 'checking' }
  | { status: 'done'; result: ChainVerification }
  | { status: 'failed'; message: string };

// The hash chain is the product's tamper evidence, so its state sits next to the log
// itself: green when every link checks out, red (with the first broken seq) when not.
// `refreshKey` lets the page re-run the check together with its own Refresh.
export function VerifyBadge({ refreshKey }: { refreshKey: number }) {
  const [state, setState] = useState<VerifyState>({ status: 'checking' });
  const [run, setRun] = useState(0);

  useEffect(() => {
    let cancelled = false;
    setState({ status: 'checking' });
    api.verifyAudit().then(
      (result) => {
        if (!cancelled) setState({ status: 'done', result });
      },
      (error: unknown) => {
        if (!cancelled) setState({ status: 'failed', message: errorMessage(error) });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [run, refreshKey]);

  const recheck = useCallback(() => { setRun((n) => n + 1); }, []);

  let tone: 'ok' | 'bad' | 'pending';
  let text: string;
  let title: string | undefined;
  if (state.status === 'checking') {
    tone = 'pending';
    text = 'Verifying chain…';
  } else if (state.status === 'failed') {
    tone = 'bad';
    text = `Chain not verified: ${state.message}`;
  } else if (state.result.ok) {
    const { checked, head } = state.result;
    tone = 'ok';
    text = `Chain verified: ${pluralize(checked, 'event')}`;
    if (head !== null) text += `, head #${String(head.seq)} ${shortHash(head.hash, 10)}`;
    title = head?.hash;
  } else {
    const { firstBrokenSeq, reason, checked } = state.result;
    tone = 'bad';
    text = `Chain BROKEN${firstBrokenSeq !== null ? ` at #${String(firstBrokenSeq)}` : ''}`;
    if (reason !== null) text += `: ${reason}`;
    title = `${pluralize(checked, 'event')} checked`;
  }

  return (
    <span className={`verify-badge verify-${tone}`} data-testid="verify-badge" data-state={tone} title={title}>
      <span className="verify-dot" aria-hidden="true" />
      <span className="mono-ish">{text}</span>
      <button
        type="button"
        className="link-button"
        onClick={recheck}
        disabled={state.status === 'checking'}
        aria-label="Verify the chain again"
      >
        re-check
      </button>
    </span>
  );
}
