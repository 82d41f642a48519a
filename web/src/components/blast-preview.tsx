import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { api } from '../api/client';
import { silenceModes, type BlastPreview as Preview, type SilenceMode } from '../api/types';
import {
  blastRequest,
  criticalityReason,
  hasComponents,
  itemName,
  replaceLine,
  silenceModeHints,
  silenceModeLabels,
  type BlastDraft,
} from '../lib/blast-preview';
import { errorMessage, isAbort } from '../lib/errors';
import { pluralize } from '../lib/format';
import { KindBadge, TierBadge } from './catalogue-badges';
import { ContractsCard, type ContractsState } from './contracts-card';
import { DependencyMap } from './dependency-map';
import { ErrorBanner } from './error-banner';
import { UnresolvedName } from './unresolved-name';
import './blast-preview.css';

// The live preview of a change's blast radius, for the change editor: the components (one
// name or key a line), hops and the silence mode in; the silence scope, criticality,
// unresolved names with their candidates, what stays loud, the dependency map and the
// contracts of its call edges out. Controlled: the form that embeds it owns the draft.

type Props = {
  draft: BlastDraft;
  onDraftChange: (draft: BlastDraft) => void;
  // Every answer (null while nothing is named), e.g. for a form to block a refused save.
  onPreview?: (preview: Preview | null) => void;
  idPrefix?: string;
  // A form's error for the components (a 400 naming them), shown under the editor.
  componentsError?: ReactNode;
  // Whether that error stands: the editor is marked invalid (red) only then.
  componentsInvalid?: boolean;
};

const DEBOUNCE_MS = 300;
const ITEMS_SHOWN = 8;

export function BlastPreview({ draft, onDraftChange, onPreview, idPrefix = 'blast', componentsError, componentsInvalid = false }: Props) {
  const [preview, setPreview] = useState<Preview | null>(null);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [contracts, setContracts] = useState<ContractsState>({ status: 'idle' });
  const [retries, setRetries] = useState(0);
  // The organisation's default mode, as the last answer without an override showed it.
  const [orgDefault, setOrgDefault] = useState<SilenceMode | null>(null);
  const published = useRef(onPreview);
  published.current = onPreview;

  const { lines, hops, silenceInfra } = draft;
  const named = hasComponents(draft);

  useEffect(() => {
    if (!named) {
      setPreview(null);
      setPending(false);
      setFailure(null);
      setContracts({ status: 'idle' });
      published.current?.(null);
      return;
    }
    const abort = new AbortController();
    const body = blastRequest({ lines, hops, silenceInfra });
    setPending(true);
    const timer = setTimeout(() => {
      api.previewBlast(body, abort.signal).then(
        (answer) => {
          if (abort.signal.aborted) return;
          setPreview(answer);
          setFailure(null);
          setPending(false);
          if (silenceInfra === null) setOrgDefault(answer.silenceInfra);
          published.current?.(answer);
          // The contracts come second and never hold the preview up. A change a save would refuse
          // has none: its call edges are left out.
          if (answer.refused !== null) {
            setContracts({ status: 'refused' });
            return;
          }
          setContracts((was) => ({
            status: 'loading',
            previous: was.status === 'ready' ? was.contracts : was.status === 'loading' ? was.previous : null,
          }));
          api.previewContracts({ edges: answer.blast.edges ?? [] }, abort.signal).then(
            (c) => { if (!abort.signal.aborted) setContracts({ status: 'ready', contracts: c }); },
            (caught: unknown) => {
              if (!abort.signal.aborted && !isAbort(caught)) setContracts({ status: 'error', message: errorMessage(caught) });
            },
          );
        },
        (caught: unknown) => {
          if (abort.signal.aborted || isAbort(caught)) return;
          setFailure(errorMessage(caught));
          setPending(false);
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [named, lines, hops, silenceInfra, retries]);

  const componentKeys = useMemo(() => new Set(preview?.resolved.map((r) => r.key) ?? []), [preview]);
  const criticality = preview === null ? null : criticalityReason(preview);
  const defaultLabel = orgDefault === null ? 'Organisation default' : `Organisation default (${orgDefault})`;
  const mode = silenceInfra ?? orgDefault;

  return (
    <div className="blast-preview" data-testid="blast-preview">
      <section className="card blast-editor">
        <div className="field blast-components">
          <label htmlFor={`${idPrefix}-components`}>Components</label>
          <textarea
            id={`${idPrefix}-components`}
            className="mono-input"
            rows={5}
            value={lines}
            placeholder={'payments-api\nsvc:checkout'}
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => { onDraftChange({ ...draft, lines: e.target.value }); }}
            aria-invalid={componentsInvalid ? true : undefined}
            data-testid="blast-components"
          />
          <span className="muted small">One name or key a line, resolved as a registration will resolve them.</span>
          {componentsError}
        </div>
        <div className="blast-options">
          <fieldset className="field">
            <legend>Hops</legend>
            <div className="segmented">
              {([1, 2] as const).map((n) => (
                <span key={n} className="segment">
                  <input
                    id={`${idPrefix}-hops-${String(n)}`}
                    type="radio"
                    name={`${idPrefix}-hops`}
                    checked={hops === n}
                    onChange={() => { onDraftChange({ ...draft, hops: n }); }}
                    data-testid={`blast-hops-${String(n)}`}
                  />
                  <label htmlFor={`${idPrefix}-hops-${String(n)}`}>{n === 1 ? '1 hop' : '2 hops'}</label>
                </span>
              ))}
            </div>
          </fieldset>
          <div className="field">
            <label htmlFor={`${idPrefix}-silence-infra`}>Silence infrastructure</label>
            <select
              id={`${idPrefix}-silence-infra`}
              value={silenceInfra ?? ''}
              onChange={(e) => { onDraftChange({ ...draft, silenceInfra: e.target.value === '' ? null : (e.target.value as SilenceMode) }); }}
              data-testid="blast-silence-infra"
            >
              <option value="">{defaultLabel}</option>
              {silenceModes.map((m) => (
                <option key={m} value={m}>
                  {silenceModeLabels[m]}
                </option>
              ))}
            </select>
            {mode !== null && <span className="muted small blast-mode-hint">{silenceModeHints[mode]}</span>}
          </div>
        </div>
      </section>

      {!named && <p className="muted blast-empty">Name the components to see what the change would silence.</p>}
      <ErrorBanner message={named ? failure : null} testId="blast-error" onRetry={() => { setRetries((n) => n + 1); }} />

      {named && preview !== null && (
        <section className="card blast-summary" data-testid="blast-summary" aria-busy={pending}>
          <div className="blast-summary-head">
            <p className="scope-line" title={preview.scopeBreakdown} aria-live="polite" data-testid="scope-line">
              {preview.scopeLine}
            </p>
            {pending && <span className="muted small">Updating…</span>}
          </div>
          {criticality !== null && (
            <p className="criticality-line" data-testid="criticality-line" data-source={preview.criticalitySource}>
              Criticality: {criticality.tier !== null && <><TierBadge tier={criticality.tier} />{' '}</>}
              {criticality.text}
              {preview.criticalitySource === 'pending' && preview.criticality !== null && (
                <span className="muted"> · highest known so far: {preview.criticality}</span>
              )}
            </p>
          )}
          {preview.resolved.length > 0 && (
            <div className="blast-resolved" data-testid="blast-resolved">
              <span className="muted small">Components</span>
              {preview.resolved.map((r) => (
                <span key={r.key} className="resolved-chip" data-testid="resolved" data-key={r.key} title={`${r.key} (${r.match}${r.seen ? '' : ', not in the catalogue'})`}>
                  <KindBadge kind={r.kind} /> {r.name}
                  {!r.seen && <span className="stale-badge">unseen</span>}
                </span>
              ))}
            </div>
          )}
          {preview.unresolved.map((u) => (
            <UnresolvedName
              key={u.query}
              unresolved={u}
              noMatch="matches nothing in the catalogue."
              onPick={(key) => { onDraftChange({ ...draft, lines: replaceLine(lines, u.query, key) }); }}
              testIds={{ row: 'unresolved', candidate: 'candidate' }}
            />
          ))}
          {preview.refused !== null && (
            <div className="banner banner-error" role="alert" data-testid="blast-refused">
              <span className="banner-text">
                A save would be refused (422): {preview.refused}. Name fewer components, walk one hop, or silence less infrastructure.
              </span>
            </div>
          )}
          {preview.large && preview.refused === null && (
            <div className="banner banner-warn" role="status" data-testid="blast-large">
              <span className="banner-text">
                {pluralize(preview.counts.services, 'service')} — a change of 100 services or more needs confirmation when saved.
              </span>
            </div>
          )}
          {preview.blast.notSilenced.length > 0 && (
            <div className="not-silenced" data-testid="not-silenced">
              <h3>Not silenced</h3>
              <ul>
                {preview.blast.notSilenced.map((ns) => (
                  <li key={`${ns.kind}:${ns.name}`} data-testid="not-silenced-item" data-kind={ns.kind}>
                    <span className="strong">{ns.name}</span> <span className="muted">— {ns.why}</span>
                    {ns.items.length > 0 && (
                      <div className="small not-silenced-items">
                        {ns.items.slice(0, ITEMS_SHOWN).map(itemName).join(', ')}
                        {ns.count > ITEMS_SHOWN && <span className="muted"> and {ns.count - ITEMS_SHOWN} more</span>}
                      </div>
                    )}
                  </li>
                ))}
              </ul>
            </div>
          )}
          {preview.blast.warnings.map((w) => (
            <div key={w} className="banner banner-warn" role="status" data-testid="blast-warning">
              <span className="banner-text">{w}</span>
            </div>
          ))}
        </section>
      )}

      {named && preview !== null && preview.blast.nodes.length > 0 && (
        <DependencyMap blast={preview.blast} componentKeys={componentKeys} idPrefix={`${idPrefix}-map`} />
      )}
      {named && preview !== null && <ContractsCard state={contracts} />}
      {named && preview === null && failure === null && <p className="muted">Computing the blast radius…</p>}
    </div>
  );
}
