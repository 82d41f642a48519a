import { useEffect, useState } from 'react';
import { governanceApi } from '../api/governance-client';
import type { Template } from '../api/governance-types';
import { fieldMatches } from '../lib/errors';
import { FieldError } from './field-error';

export type ClassDraft = { emergency: boolean; emergencyReason: string; incident: string; template: string };
export const emptyClassDraft: ClassDraft = { emergency: false, emergencyReason: '', incident: '', template: '' };

type Props = { draft: ClassDraft; onChange: (draft: ClassDraft) => void; field: string | null; error: string | null };

// The register form's class: an emergency (its reason and the incident it answers), or a
// certified template the change claims. The server decides the class; these say what to claim.
export function ChangeClassFields({ draft, onChange, field, error }: Props) {
  const [templates, setTemplates] = useState<Template[] | null>(null);
  const set = (patch: Partial<ClassDraft>): void => { onChange({ ...draft, ...patch }); };
  const invalid = (name: string): true | undefined => (fieldMatches(field, name) ? true : undefined);

  useEffect(() => {
    const abort = new AbortController();
    governanceApi.listTemplates(abort.signal).then(
      (list) => { if (!abort.signal.aborted) setTemplates(list.items.filter((t) => t.state === 'certified').sort((a, b) => a.name.localeCompare(b.name))); },
      () => { if (!abort.signal.aborted) setTemplates([]); },
    );
    return () => { abort.abort(); };
  }, []);

  return (
    <div className="change-class-fields gov-form" data-testid="change-class-fields">
      <div className="field">
        <span className="check emergency-switch">
          <input
            id="change-emergency"
            type="checkbox"
            role="switch"
            className="switch switch-emergency"
            checked={draft.emergency}
            onChange={(e) => { set({ emergency: e.target.checked }); }}
            aria-describedby="change-emergency-hint"
            data-testid="change-emergency"
          />
          <label htmlFor="change-emergency">Emergency</label>
        </span>
        <span id="change-emergency-hint" className="muted small">
          Answers an incident: high risk (L3), needs at least two approvers, and may start during a freeze once they have approved it.
        </span>
      </div>
      {draft.emergency && (
        <div className="gov-pair emergency-fields" data-testid="change-emergency-fields">
          <div className="field">
            <label htmlFor="change-emergency-reason">Emergency reason</label>
            <textarea id="change-emergency-reason" rows={2} maxLength={2000} value={draft.emergencyReason} placeholder="Checkout is failing for every card payment" onChange={(e) => { set({ emergencyReason: e.target.value }); }} aria-invalid={invalid('emergencyReason')} data-testid="change-emergency-reason" />
            <FieldError field={field} name="emergencyReason" message={error} />
          </div>
          <div className="field">
            <label htmlFor="change-incident">Incident</label>
            <input id="change-incident" type="text" maxLength={1000} value={draft.incident} placeholder="INC-4411 or https://…" onChange={(e) => { set({ incident: e.target.value }); }} aria-invalid={invalid('incident')} data-testid="change-incident" />
            <span className="muted small">The incident or ticket it answers: an id or a link.</span>
            <FieldError field={field} name="incident" message={error} />
          </div>
        </div>
      )}
      {!draft.emergency && (
        <div className="field field-template">
          <label htmlFor="change-template">Standard-change template</label>
          <select id="change-template" value={draft.template} onChange={(e) => { set({ template: e.target.value }); }} aria-invalid={invalid('template')} disabled={templates === null} data-testid="change-template">
            <option value="">{templates === null ? 'Loading…' : 'None: decided by the organisation’s policy'}</option>
            {(templates ?? []).map((t) => (
              <option key={t.id} value={t.id}>
                {t.name} (v{t.version})
              </option>
            ))}
          </select>
          <span className="muted small">
            {templates !== null && templates.length === 0 ? 'No template is certified yet.' : 'Standard (L1) when the template covers the change; normal when it does not, with the reason.'}
          </span>
          <FieldError field={field} name="template" message={error} />
        </div>
      )}
    </div>
  );
}
