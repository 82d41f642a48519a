import { completenessValues, type Completeness } from '../api/rollback-types';
import type { BeforeStateDraft } from '../lib/before-state-draft';
import { fieldMatches } from '../lib/errors';
import { completenessLabels } from '../lib/rollback-format';
import { FieldError } from './field-error';

type Props = { draft: BeforeStateDraft; onChange: (draft: BeforeStateDraft) => void; field: string | null; error: string | null; idPrefix: string };

// What ran before the change: the version or commit to go back to, and an artifact (a manifest,
// a config file up to 256 KiB, kept byte for byte). The server names a refused field as
// beforeState.artifact at registration and artifact on the change page: both land here.
export function BeforeStateFieldset({ draft, onChange, field, error, idPrefix }: Props) {
  const set = (patch: Partial<BeforeStateDraft>): void => { onChange({ ...draft, ...patch }); };
  const named = (...names: string[]): string | null => names.find((n) => fieldMatches(field, n)) ?? null;
  const invalid = (...names: string[]): true | undefined => (named(...names) !== null ? true : undefined);
  const at = (...names: string[]) => <FieldError field={field} name={named(...names) ?? names[0] ?? ''} message={error} />;
  const id = (name: string): string => `${idPrefix}-${name}`;

  return (
    <div className="before-state-fields" data-testid={`${idPrefix}-fields`}>
      {field === 'beforeState' && <FieldError field={field} name="beforeState" message={error} />}
      <div className="gov-pair">
        <div className="field">
          <label htmlFor={id('version')}>Previous version</label>
          <input id={id('version')} type="text" maxLength={200} value={draft.previousVersion} placeholder="checkout-api 1.41.2" onChange={(e) => { set({ previousVersion: e.target.value }); }} aria-invalid={invalid('previousVersion')} spellCheck={false} data-testid={id('version')} />
          {at('previousVersion')}
        </div>
        <div className="field">
          <label htmlFor={id('commit')}>Previous commit</label>
          <input id={id('commit')} type="text" maxLength={200} value={draft.previousCommit} placeholder="9f2c1ab" onChange={(e) => { set({ previousCommit: e.target.value }); }} aria-invalid={invalid('previousCommit')} spellCheck={false} className="mono-input" data-testid={id('commit')} />
          {at('previousCommit')}
        </div>
      </div>
      <div className="gov-pair">
        <div className="field">
          <label htmlFor={id('artifact-name')}>Artifact name</label>
          <input id={id('artifact-name')} type="text" maxLength={200} value={draft.artifactName} placeholder="deploy/checkout.yaml" onChange={(e) => { set({ artifactName: e.target.value }); }} aria-invalid={invalid('beforeState.artifactName', 'artifactName')} spellCheck={false} data-testid={id('artifact-name')} />
          {at('beforeState.artifactName', 'artifactName')}
        </div>
        <div className="field">
          <label htmlFor={id('completeness')}>Completeness</label>
          <select id={id('completeness')} value={draft.completeness} onChange={(e) => { set({ completeness: e.target.value as Completeness | '' }); }} aria-invalid={invalid('beforeState.completeness', 'completeness')} data-testid={id('completeness')}>
            <option value="">not said</option>
            {completenessValues.map((c) => (
              <option key={c} value={c}>
                {completenessLabels[c].label}
              </option>
            ))}
          </select>
          <span className="muted small">{draft.completeness === '' ? 'A version counts as partial, a commit as complete, an artifact as unknown.' : completenessLabels[draft.completeness].hint}</span>
          {at('beforeState.completeness', 'completeness')}
        </div>
      </div>
      <div className="field">
        <label htmlFor={id('artifact')}>Artifact (optional)</label>
        <textarea id={id('artifact')} rows={7} value={draft.artifact} placeholder={'replicas: 4\nimage: checkout-api:1.41.2'} onChange={(e) => { set({ artifact: e.target.value }); }} aria-invalid={invalid('beforeState.artifact', 'artifact')} spellCheck={false} className="mono-input" data-testid={id('artifact')} />
        <span className="muted small">A manifest or config file as it was, up to 256 KiB: kept byte for byte, so it can be put back.</span>
        {at('beforeState.artifact', 'artifact')}
      </div>
    </div>
  );
}
