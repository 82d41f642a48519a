import { useState, type SubmitEvent } from 'react';
import { governanceApi } from '../api/governance-client';
import type { Template, TemplateInput } from '../api/governance-types';
import { changeKinds, type ChangeKind } from '../api/types';
import { kindLabels } from '../lib/change-format';
import { errorField, errorMessage, fieldMatches } from '../lib/errors';
import { ErrorBanner } from './error-banner';
import { FieldError } from './field-error';

type Draft = {
  name: string;
  kind: ChangeKind;
  services: string;
  environments: string;
  pipelines: string;
  repos: string;
  maxBlastServices: string;
  hops: 1 | 2;
  description: string;
};

const listFields = ['services', 'environments', 'pipelines', 'repos'] as const;
type ListField = (typeof listFields)[number];

const listLabels: Record<ListField, { label: string; hint: string; placeholder: string }> = {
  services: { label: 'Services', hint: 'Catalogue keys or globs every component must match: one a line.', placeholder: 'svc:checkout\nsvc:pay*' },
  environments: { label: 'Environments', hint: 'Empty: a change must name no environment. Globs allowed.', placeholder: 'staging\nprod-*' },
  pipelines: { label: 'Pipelines', hint: 'Empty: any pipeline, or none.', placeholder: 'deploy-checkout' },
  repos: { label: 'Repositories', hint: 'Empty: any repository, or none.', placeholder: 'acme/checkout' },
};

function draftOf(t: Template | null): Draft {
  return {
    name: t?.name ?? '',
    kind: (t?.kind as ChangeKind | undefined) ?? 'deploy',
    services: t?.services.join('\n') ?? '',
    environments: t?.environments.join('\n') ?? '',
    pipelines: t?.pipelines.join('\n') ?? '',
    repos: t?.repos.join('\n') ?? '',
    maxBlastServices: String(t?.maxBlastServices ?? 5),
    hops: t?.hops === 2 ? 2 : 1,
    description: t?.description ?? '',
  };
}

const lines = (text: string): string[] => [...new Set(text.split(/[\n,]+/).map((s) => s.trim()).filter((s) => s !== ''))];

type Props = {
  // The template being edited; null drafts a new one.
  template: Template | null;
  onSaved: (text: string) => void;
  onCancel: () => void;
};

// Drafting or editing a template (owners and admins). An edit is a new version and is no longer
// certified: the form says so before it is sent. Each refusal shows under the field it names.
export function TemplateForm({ template, onSaved, onCancel }: Props) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(template));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [field, setField] = useState<string | null>(null);

  const set = (patch: Partial<Draft>): void => {
    setDraft((d) => ({ ...d, ...patch }));
    if (field === null || Object.keys(patch).some((k) => fieldMatches(field, k))) {
      setError(null);
      setField(null);
    }
  };

  const refuse = (message: string, name: string | null): void => {
    setError(message);
    setField(name);
  };

  const submit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (draft.name.trim() === '') return refuse('Name the template.', 'name');
    if (lines(draft.services).length === 0) return refuse('Name at least one catalogue key or glob (svc:checkout, svc:pay*).', 'services');
    const max = Number(draft.maxBlastServices);
    if (draft.maxBlastServices.trim() === '' || !Number.isInteger(max)) return refuse('The largest blast radius is a whole number of services (1 – 1000).', 'maxBlastServices');
    const body: TemplateInput = {
      name: draft.name.trim(),
      kind: draft.kind,
      services: lines(draft.services),
      environments: lines(draft.environments),
      pipelines: lines(draft.pipelines),
      repos: lines(draft.repos),
      maxBlastServices: max,
      hops: draft.hops,
      description: draft.description.trim(),
    };
    setBusy(true);
    setError(null);
    setField(null);
    try {
      if (template === null) {
        const made = await governanceApi.createTemplate(body);
        onSaved(`Drafted “${made.name}” (version ${String(made.version)}): a different owner or approver certifies it.`);
      } else {
        const edited = await governanceApi.editTemplate(template.id, body);
        const dropped = edited.dropped > 0 ? ` ${String(edited.dropped)} change${edited.dropped === 1 ? '' : 's'} it made standard went back to normal.` : '';
        onSaved(`Saved “${edited.template.name}” as version ${String(edited.template.version)}: a draft until it is certified again.${dropped}`);
      }
    } catch (caught) {
      refuse(errorMessage(caught), errorField(caught));
      setBusy(false);
    }
  };

  const invalid = (name: string): true | undefined => (fieldMatches(field, name) ? true : undefined);
  const placed = ['name', 'kind', 'maxBlastServices', 'hops', 'description', ...listFields];
  const loose = error !== null && !placed.some((n) => fieldMatches(field, n)) ? error : null;
  const idOf = (name: string): string => `template-${name}`;

  return (
    <form className="card template-form gov-form" onSubmit={(e) => void submit(e)} noValidate data-testid="template-form">
      <div className="section-head">
        <h2>{template === null ? 'Draft a template' : `Edit “${template.name}”`}</h2>
        {template !== null && <span className="muted small">now version {template.version}</span>}
      </div>
      {template !== null && template.state === 'certified' && (
        <div className="banner banner-warn" role="status" data-testid="template-edit-warning">
          <span className="banner-text">
            Saving makes version {template.version + 1}, a draft: it is no longer certified, and changes it made standard that have not started go back to normal.
          </span>
        </div>
      )}
      <ErrorBanner message={loose} testId="template-form-error" />
      <div className="template-grid">
        <div className="field template-span-2">
          <label htmlFor={idOf('name')}>Name</label>
          <input id={idOf('name')} type="text" maxLength={120} value={draft.name} placeholder="Restart a checkout pod" onChange={(e) => { set({ name: e.target.value }); }} aria-invalid={invalid('name')} data-testid="template-name" />
          <FieldError field={field} name="name" message={error} />
        </div>
        <div className="field">
          <label htmlFor={idOf('kind')}>Kind</label>
          <select id={idOf('kind')} value={draft.kind} onChange={(e) => { set({ kind: e.target.value as ChangeKind }); }} aria-invalid={invalid('kind')} data-testid="template-kind">
            {changeKinds.map((k) => (
              <option key={k} value={k}>
                {kindLabels[k]}
              </option>
            ))}
          </select>
          <FieldError field={field} name="kind" message={error} />
        </div>
        <div className="field">
          <label htmlFor={idOf('maxBlastServices')}>Largest blast radius (services)</label>
          <input id={idOf('maxBlastServices')} type="number" min={1} max={1000} value={draft.maxBlastServices} onChange={(e) => { set({ maxBlastServices: e.target.value }); }} aria-invalid={invalid('maxBlastServices')} data-testid="template-max-blast" />
          <FieldError field={field} name="maxBlastServices" message={error} />
        </div>
        {listFields.map((name) => (
          <div key={name} className="field">
            <label htmlFor={idOf(name)}>{listLabels[name].label}</label>
            <textarea
              id={idOf(name)}
              className="mono-input"
              rows={3}
              value={draft[name]}
              placeholder={listLabels[name].placeholder}
              onChange={(e) => { set({ [name]: e.target.value }); }}
              aria-invalid={invalid(name)}
              spellCheck={false}
              data-testid={`template-${name}`}
            />
            <span className="muted small">{listLabels[name].hint}</span>
            <FieldError field={field} name={name} message={error} />
          </div>
        ))}
        <fieldset className="field">
          <legend>Hops at most</legend>
          <div className="segmented" data-testid="template-hops">
            {([1, 2] as const).map((h) => (
              <span key={h} className="segment">
                <input id={`template-hops-${String(h)}`} type="radio" name="template-hops" checked={draft.hops === h} onChange={() => { set({ hops: h }); }} data-testid={`template-hops-${String(h)}`} />
                <label htmlFor={`template-hops-${String(h)}`}>{h === 1 ? '1 hop' : '2 hops'}</label>
              </span>
            ))}
          </div>
          <FieldError field={field} name="hops" message={error} />
        </fieldset>
        <div className="field template-span-3">
          <label htmlFor={idOf('description')}>Description (optional)</label>
          <textarea id={idOf('description')} rows={2} maxLength={4000} value={draft.description} placeholder="What the operation is, and why it is safe" onChange={(e) => { set({ description: e.target.value }); }} aria-invalid={invalid('description')} data-testid="template-description" />
          <FieldError field={field} name="description" message={error} />
        </div>
      </div>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy} data-testid="template-save">
          {busy ? 'Saving…' : template === null ? 'Save the draft' : 'Save as a new version'}
        </button>
        <button type="button" className="btn" disabled={busy} onClick={onCancel} data-testid="template-cancel">
          Cancel
        </button>
      </div>
    </form>
  );
}
