import { useEffect, useState } from 'react';
import { api } from '../api/client';
import { labelRuleKinds, type AlertSettings, type LabelRule, type LabelRuleKind, type WireLabelRule } from '../api/types';
import { errorField, errorMessage } from '../lib/errors';
import { sentence } from '../lib/format';
import { ErrorBanner } from './error-banner';
import './alert-label-mapping.css';

type Props = { settings: AlertSettings; canEdit: boolean; onSaved: (next: AlertSettings) => void };

type Row = { labels: string; as: LabelRuleKind; kinds: string };

const kindLabels: Record<LabelRuleKind, string> = {
  service: 'Service',
  source: 'Monitoring source',
  pod: 'Pod (namespace, pod)',
  asset: 'Infrastructure',
};

const split = (text: string): string[] => text.split(/[\s,]+/).filter((x) => x !== '');

function toRows(mapping: readonly WireLabelRule[]): Row[] {
  return mapping.map((r) => ({ labels: r.labels.join(', '), as: r.as, kinds: (r.kinds ?? []).join(', ') }));
}

// The server checks the rules; the editor only turns rows into them (an asset row's kinds, too).
function toMapping(rows: readonly Row[]): LabelRule[] {
  return rows.map((r) => (r.as === 'asset' ? { labels: split(r.labels), as: 'asset', kinds: split(r.kinds) } : { labels: split(r.labels), as: r.as }));
}

/** Which row (and which of its parts) a refusal names: `labelMapping.2.kinds.0` → row 2, kinds. */
export function rowOfField(field: string | null): { row: number; part: string | null } | null {
  if (field === null) return null;
  const m = /^(?:labelMapping\.)?(\d+)(?:\.([a-zA-Z]+))?/.exec(field);
  if (m === null) return null;
  return { row: Number(m[1]), part: m[2] ?? null };
}

// Which labels of an alert name the catalogue entity it is about, tried top to bottom: the first
// row whose labels name an entity wins. An alert no row maps stays unmapped and is never held.
export function AlertLabelMapping({ settings, canEdit, onSaved }: Props) {
  const [rows, setRows] = useState<Row[]>(() => toRows(settings.labelMapping));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<{ message: string; field: string | null } | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => { setRows(toRows(settings.labelMapping)); }, [settings.labelMapping]);

  const change = (i: number, patch: Partial<Row>): void => {
    setSaved(false);
    setRows((rs) => rs.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  };
  const move = (i: number, by: -1 | 1): void => {
    setRows((rs) => {
      const next = [...rs];
      const [r] = next.splice(i, 1);
      if (r !== undefined) next.splice(i + by, 0, r);
      return next;
    });
  };
  const save = async (mapping: LabelRule[] | null): Promise<void> => {
    setSaving(true);
    setError(null);
    setSaved(false);
    try {
      onSaved(await api.updateAlertSettings({ labelMapping: mapping }));
      setSaved(true);
    } catch (caught) {
      setError({ message: errorMessage(caught), field: errorField(caught) });
    } finally {
      setSaving(false);
    }
  };

  const at = rowOfField(error?.field ?? null);
  const isDefault = settings.labelMappingIsDefault;

  return (
    <section className="card settings-card" data-testid="label-mapping" aria-labelledby="label-mapping-title">
      <div className="section-head">
        <h2 id="label-mapping-title">Label mapping</h2>
        {isDefault && <span className="pill" data-testid="label-mapping-default">the defaults</span>}
      </div>
      <p className="muted small">
        Which labels of an alert name what it is about, tried top to bottom; the first row whose label value names a catalogue entity wins.
        An alert no row maps is recorded as unmapped and never held.
      </p>
      <ol className="label-rules" data-testid="label-rules">
        {rows.map((r, i) => {
          const mine = at?.row === i ? error : null;
          return (
            <li key={i} className={mine === null ? 'label-rule' : 'label-rule invalid'} data-testid="label-rule">
              <span className="label-rule-order muted">{i + 1}</span>
              <div className="label-rule-fields">
                <div className="field">
                  <label htmlFor={`rule-labels-${String(i)}`}>Labels</label>
                  <input
                    id={`rule-labels-${String(i)}`}
                    type="text"
                    className="mono-input"
                    value={r.labels}
                    disabled={!canEdit}
                    onChange={(e) => { change(i, { labels: e.target.value }); }}
                    aria-invalid={mine !== null && (at?.part === 'labels' || at?.part === null)}
                    data-testid="label-rule-labels"
                  />
                </div>
                <div className="field label-rule-as">
                  <label htmlFor={`rule-as-${String(i)}`}>Maps to</label>
                  <select id={`rule-as-${String(i)}`} value={r.as} disabled={!canEdit} onChange={(e) => { change(i, { as: e.target.value as LabelRuleKind }); }} aria-invalid={mine !== null && at?.part === 'as'} data-testid="label-rule-as">
                    {labelRuleKinds.map((k) => (
                      <option key={k} value={k}>
                        {kindLabels[k]}
                      </option>
                    ))}
                  </select>
                </div>
                {r.as === 'asset' && (
                  <div className="field">
                    <label htmlFor={`rule-kinds-${String(i)}`}>Of kind</label>
                    <input
                      id={`rule-kinds-${String(i)}`}
                      type="text"
                      className="mono-input"
                      placeholder="host, node, vm"
                      value={r.kinds}
                      disabled={!canEdit}
                      onChange={(e) => { change(i, { kinds: e.target.value }); }}
                      aria-invalid={mine !== null && at?.part === 'kinds'}
                      data-testid="label-rule-kinds"
                    />
                  </div>
                )}
                {mine !== null && (
                  <span className="field-error small label-rule-error" role="alert" data-testid="field-error" data-field={mine.field ?? undefined}>
                    {sentence(mine.message)}
                  </span>
                )}
              </div>
              {canEdit && (
                <div className="label-rule-actions">
                  <button type="button" className="btn btn-small" onClick={() => { move(i, -1); }} disabled={i === 0} aria-label={`Move row ${String(i + 1)} up`}>
                    ↑
                  </button>
                  <button type="button" className="btn btn-small" onClick={() => { move(i, 1); }} disabled={i === rows.length - 1} aria-label={`Move row ${String(i + 1)} down`}>
                    ↓
                  </button>
                  <button type="button" className="btn btn-small btn-danger-outline" onClick={() => { setRows((rs) => rs.filter((_, j) => j !== i)); }} aria-label={`Remove row ${String(i + 1)}`} data-testid="label-rule-remove">
                    Remove
                  </button>
                </div>
              )}
            </li>
          );
        })}
      </ol>
      {error !== null && at === null && <ErrorBanner message={error.message} testId="label-mapping-error" />}
      {canEdit && (
        <div className="form-actions">
          <button type="button" className="btn btn-small" onClick={() => { setRows((rs) => [...rs, { labels: '', as: 'service', kinds: '' }]); }} data-testid="label-rule-add">
            Add a row
          </button>
          <button type="button" className="btn btn-primary" onClick={() => void save(toMapping(rows))} disabled={saving} data-testid="label-mapping-save">
            {saving ? 'Saving…' : 'Save the mapping'}
          </button>
          {!isDefault && (
            <button type="button" className="btn" onClick={() => void save(null)} disabled={saving} data-testid="label-mapping-reset">
              Back to the defaults
            </button>
          )}
          {saved && <span className="small ok-text" role="status" data-testid="label-mapping-saved">Saved.</span>}
        </div>
      )}
    </section>
  );
}
